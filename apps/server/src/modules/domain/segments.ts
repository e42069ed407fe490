/**
 * The one algorithm that changes versioned data (DOMAIN.md "Master data is versioned"): apply new
 * content to a validity range of an entity. Current segments overlapping the range are superseded
 * (kept as history by the repository); their parts outside the range come back unchanged, and the
 * range itself gets the new content. "Change from a date" is a range [date, end).
 */
export interface SegmentContent {
  name: string;
  active: boolean;
  state: string;
  comments: string | null;
  attributes: Record<string, unknown>;
}

/** A segment as a change sees it: stored (id > 0) or created by this change (id < 0, not yet stored). */
export interface WorkingSegment extends SegmentContent {
  id: number;
  start: string;
  end: string;
  /** Kept for remainders of an unchanged segment; null for a changed part (now, by the actor). */
  lastModified: string | null;
  lastModifiedBy: string | null;
}

let nextTempId = -1;
const tempId = (): number => nextTempId--;

const ms = (iso: string): number => Date.parse(iso);

export const overlaps = (a: { start: string; end: string }, b: { start: string; end: string }): boolean =>
  ms(a.start) < ms(b.end) && ms(b.start) < ms(a.end);

const byStart = (a: WorkingSegment, b: WorkingSegment): number => ms(a.start) - ms(b.start);

function remainders(segment: WorkingSegment, range: { start: string; end: string }): WorkingSegment[] {
  const out: WorkingSegment[] = [];
  if (ms(segment.start) < ms(range.start)) out.push({ ...segment, id: tempId(), end: range.start });
  if (ms(range.end) < ms(segment.end)) out.push({ ...segment, id: tempId(), start: range.end });
  return out;
}

export const sameContent = (a: SegmentContent, b: SegmentContent): boolean =>
  a.name === b.name &&
  a.active === b.active &&
  a.state === b.state &&
  (a.comments ?? null) === (b.comments ?? null) &&
  stableJson(a.attributes) === stableJson(b.attributes);

export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Save: the whole range gets `content` (gaps between segments are filled). Saving exactly what one
 * segment already holds over exactly its range changes nothing (an export re-imported).
 */
export function replaceRange(
  current: readonly WorkingSegment[],
  range: { start: string; end: string },
  content: SegmentContent,
): WorkingSegment[] {
  const hit = current.filter((s) => overlaps(s, range));
  const only = hit.length === 1 ? hit[0]! : undefined;
  if (only && ms(only.start) === ms(range.start) && ms(only.end) === ms(range.end) && sameContent(only, content)) {
    return [...current];
  }
  return [
    ...current.filter((s) => !hit.includes(s)),
    ...hit.flatMap((s) => remainders(s, range)),
    { ...content, id: tempId(), start: range.start, end: range.end, lastModified: null, lastModifiedBy: null },
  ].sort(byStart);
}

/**
 * Status change: every existing piece inside the range gets `patch` (state, active, comment) and
 * keeps its attributes; gaps stay gaps. Undefined when no segment overlaps the range.
 */
export function patchRange(
  current: readonly WorkingSegment[],
  range: { start: string; end: string },
  patch: (segment: WorkingSegment) => SegmentContent,
): WorkingSegment[] | undefined {
  const hit = current.filter((s) => overlaps(s, range));
  if (hit.length === 0) return undefined;
  const next = current.filter((s) => !hit.includes(s));
  for (const s of hit) {
    next.push(...remainders(s, range));
    const start = ms(s.start) > ms(range.start) ? s.start : range.start;
    const end = ms(s.end) < ms(range.end) ? s.end : range.end;
    next.push({ ...patch(s), id: tempId(), start, end, lastModified: null, lastModifiedBy: null });
  }
  return next.sort(byStart);
}

/** What to store: stored segments no longer in `next` are superseded; new ones are inserted. */
export function diffSegments(
  original: readonly WorkingSegment[],
  next: readonly WorkingSegment[],
): { supersede: number[]; insert: WorkingSegment[] } {
  const kept = new Set(next.filter((s) => s.id > 0).map((s) => s.id));
  return {
    supersede: original.filter((s) => s.id > 0 && !kept.has(s.id)).map((s) => s.id),
    insert: next.filter((s) => s.id < 0),
  };
}
