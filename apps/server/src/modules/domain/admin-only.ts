import { ADMIN_ONLY_FIELDS, type EntityKind } from '@railwatt/contracts';
import { mayWriteAdminOnlyFields, type Actor } from './policy.js';
import type { SegmentRow } from './repository.js';
import { overlaps } from './segments.js';
import type { RecordError, ValidRecord } from './validation.js';

/** The 403 of a non-administrator setting a for_erex_admin_only field (calls.md §8 'Not authorized'). */
export const adminOnlyRefusal = (field: string): string =>
  `Not authorized: only the erex-administrator sets ${field} (for_erex_admin_only)`;

/**
 * product.md §6 "fields flagged for_erex_admin_only" (contracts ADMIN_ONLY_FIELDS) on save:
 * - A record that leaves such a field out keeps what is stored (the value of the latest stored
 *   segment its range overlaps, else the latest): the forms of other roles do not show the field,
 *   and their re-save must not wipe the administrator's setting. This holds for the administrator's
 *   imports too (an empty cell keeps the value).
 * - Anyone but the erex-administrator sending a value that differs from the stored one (or any
 *   value on a new entity) is refused with 403: the role may not write the field, which is an
 *   access decision, not bad input; sending the stored value back unchanged passes.
 */
export function applyAdminOnlyFields(
  actor: Actor,
  record: ValidRecord,
  range: { start: string; end: string },
  segments: readonly SegmentRow[] | undefined,
  trusted: boolean,
): { record: ValidRecord } | { error: RecordError } {
  const fields = ADMIN_ONLY_FIELDS[record.kind as EntityKind];
  if (!fields?.length) return { record };
  const pool = (segments ?? []).filter((s) => overlaps(s, range));
  const stored = [...(pool.length ? pool : (segments ?? []))].sort((a, b) => Date.parse(b.end) - Date.parse(a.end))[0];
  const attributes = { ...record.attributes };
  for (const field of fields) {
    const before = stored?.attributes[field] ?? null;
    if (!(field in attributes) || attributes[field] === undefined) {
      if (before !== null) attributes[field] = before;
      continue;
    }
    if (!trusted && !mayWriteAdminOnlyFields(actor) && (attributes[field] ?? null) !== before) {
      return {
        error: { index: record.index, field, code: 'forbidden', status: 403, message: adminOnlyRefusal(field) },
      };
    }
  }
  return { record: { ...record, attributes } };
}
