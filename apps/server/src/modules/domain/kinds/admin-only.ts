import { applyAdminOnlyFields } from '../admin-only.js';
import type { RecordAdjustment } from './types.js';

/** The kinds with fields flagged for_erex_admin_only (contracts ADMIN_ONLY_FIELDS), see ../admin-only.ts. */
export const keepAdminOnlyFields: RecordAdjustment = (actor, p, segments, trusted) => {
  const kept = applyAdminOnlyFields(actor, p.record, p.range, segments, trusted);
  if ('error' in kept) return { error: { ...kept.error, uuid: p.uuid } };
  return { planned: kept.record === p.record ? p : { ...p, record: kept.record } };
};
