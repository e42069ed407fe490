import type { EntityKind } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { ServiceContext } from '../../context.js';
import { stableJson, type SegmentContent } from '../domain/segments.js';
import { rows, type Executor } from '../domain/sql.js';

/**
 * Re-check marks (issue 19 item 2, migration 0375 `cebd_recheck`). A CEBD record is checked when its
 * file arrives; its placement and codes 54-60 read master data valid at the record's time
 * (cebd-preprocessing.ts). A later save that changes that master data for a past time marks the area
 * days concerned, and the month-end run (run option onlyDue) re-checks only those days and the days
 * still holding unchecked records.
 *
 * What counts (the attributes the check reads, per kind; anything else, a name or a comment, changes
 * no record's placement or codes):
 * - the whole area's records: a grid area's geometry and priceAreaRef, a price area's geometry, an EMS
 *   type's name and activity (54 compares names);
 * - the records of the consumption points concerned: a consumption point's unit, EMS type and activity,
 *   a unit's type, owner (55) and activity, reaching its consumption points, a type's maxPower and
 *   positionValidationRules, reaching the consumption points of its units.
 * An organisation's exchange connection (55, a remark about the delivery) marks nothing: the run page
 * re-checks a period when it matters.
 */
const RECHECKED: Partial<Record<EntityKind, { fields: readonly string[]; name?: true; activity?: true }>> = {
  gridarea: { fields: ['geometry', 'priceAreaRef'] },
  pricearea: { fields: ['geometry'] },
  emstype: { fields: [], name: true, activity: true },
  consumptionpoint: { fields: ['tractionUnitRef', 'emsType'], activity: true },
  tractionunit: { fields: ['tractionUnitTypeRef', 'owner'], activity: true },
  tractionunittype: { fields: ['maxPower', 'positionValidationRules'] },
};

/** The kinds whose change re-checks every record of the area (the others, their consumption points'). */
const AREA_WIDE: readonly EntityKind[] = ['gridarea', 'pricearea', 'emstype'];

/** One entity a save changed: its current versions before and after (modules/domain/service.ts applyPlan). */
export interface SavedVersions {
  uuid: string;
  kind: EntityKind;
  before: readonly (SegmentContent & { start: string; end: string })[];
  after: readonly (SegmentContent & { start: string; end: string })[];
}

/** A stretch of an entity's validity where what the check reads differs between before and after. */
interface Changed {
  uuid: string;
  kind: EntityKind;
  start: string;
  end: string;
}

const ms = (iso: string): number => Date.parse(iso);

/**
 * Where the attributes `kind`'s check reads differ between the versions before and after, as merged
 * stretches (an entity that appears or disappears over a stretch differs there). Pure: the versions
 * of one entity are few.
 */
export function changedStretches(entity: SavedVersions): Changed[] {
  const rule = RECHECKED[entity.kind];
  if (!rule) return [];
  const read = (s: SegmentContent): string =>
    stableJson({
      ...Object.fromEntries(rule.fields.map((f) => [f, s.attributes[f] ?? null])),
      ...(rule.name ? { name: s.name.toLowerCase() } : {}),
      ...(rule.activity ? { active: s.active && s.state !== 'INACTIVE' } : {}),
    });
  const at = (versions: SavedVersions['before'], t: number) => versions.find((v) => ms(v.start) <= t && t < ms(v.end));
  const bounds = [...new Set([...entity.before, ...entity.after].flatMap((v) => [ms(v.start), ms(v.end)]))].sort(
    (a, b) => a - b,
  );
  const out: Changed[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [from, to] = [bounds[i]!, bounds[i + 1]!];
    const was = at(entity.before, from);
    const is = at(entity.after, from);
    const differs = (was === undefined) !== (is === undefined) || (was && is && read(was) !== read(is));
    if (!differs) continue;
    const last = out.at(-1);
    if (last && ms(last.end) === from) last.end = new Date(to).toISOString();
    else
      out.push({
        uuid: entity.uuid,
        kind: entity.kind,
        start: new Date(from).toISOString(),
        end: new Date(to).toISOString(),
      });
  }
  return out;
}

/**
 * Marks for a re-check the area days that hold CEBD records the save of `saved` may judge differently
 * (see RECHECKED), in the save's transaction `tx`: only days inside a changed stretch, and only those
 * holding records (of the consumption points concerned, or any for an area-wide kind). One statement:
 * the consumption points a unit or type reaches are read from their versions valid in the stretch;
 * each stretch is first narrowed to the time its records span (two probes per point, so a point
 * without records marks nothing), then each area day of it is one probe. Answers the days marked.
 */
export async function markCebdRecheck(
  tx: Executor,
  tenant: string,
  saved: readonly SavedVersions[],
  actor: string,
): Promise<number> {
  // An entity the save creates reaches no record through consumption points: a point's records
  // name a point the intake knew, and a new unit or type is referenced only by what is saved with
  // it. A new area is another matter: it may hold records already stored. (A fleet import of new
  // units costs no probe.)
  const changed = saved.filter((s) => s.before.length > 0 || AREA_WIDE.includes(s.kind)).flatMap(changedStretches);
  if (changed.length === 0) return 0;
  const named = [...new Set(changed.map((c) => `${c.kind} ${c.uuid}`))];
  const reason = `${named.slice(0, 3).join(', ')}${named.length > 3 ? ` and ${named.length - 3} more` : ''} saved by ${actor}`;
  const T = sql`${tenant}::uuid`;
  const col = <V>(f: (c: Changed) => V) => sql.param(changed.map(f));
  const [marked] = await rows<{ n: number }>(
    tx,
    sql`WITH changed AS (
          SELECT * FROM unnest(${col((c) => c.kind)}::text[], ${col((c) => c.uuid)}::uuid[],
                               ${col((c) => c.start)}::timestamptz[], ${col((c) => c.end)}::timestamptz[])
                     AS c(kind, uuid, lo, hi)
        ), units AS (
          -- The units whose type changed (their versions of that type inside the stretch), and changed units.
          SELECT s.entity_uuid AS uuid, greatest(c.lo, lower(s.valid)) AS lo, least(c.hi, upper(s.valid)) AS hi
            FROM changed c JOIN entity_segment s
              ON s.tenant = ${T} AND s.type = 'tractionunit' AND s.superseded_at IS NULL
             AND s.valid && tstzrange(c.lo, c.hi) AND rw_uuid(s.attributes ->> 'tractionUnitTypeRef') = c.uuid
           WHERE c.kind = 'tractionunittype'
          UNION ALL SELECT uuid, lo, hi FROM changed WHERE kind = 'tractionunit'
        ), points AS (
          SELECT s.entity_uuid AS cp, greatest(u.lo, lower(s.valid)) AS lo, least(u.hi, upper(s.valid)) AS hi
            FROM units u JOIN entity_segment s
              ON s.tenant = ${T} AND s.type = 'consumptionpoint' AND s.superseded_at IS NULL
             AND s.valid && tstzrange(u.lo, u.hi) AND rw_uuid(s.attributes ->> 'tractionUnitRef') = u.uuid
          UNION ALL SELECT uuid, lo, hi FROM changed WHERE kind = 'consumptionpoint'
        ), spans AS (
          -- Each stretch narrowed to the period starts its records span (a record is judged at the
          -- start of its 5-minute period: its period end less 5 minutes).
          SELECT p.cp, greatest(p.lo, b.first - interval '5 minutes') AS lo, least(p.hi, b.last) AS hi
            FROM points p CROSS JOIN LATERAL (
                   SELECT min(r.period_end) AS first, max(r.period_end) AS last FROM cebd_record r
                    WHERE r.tenant = ${T} AND r.consumption_point_uuid = p.cp) b
           WHERE b.first IS NOT NULL
          UNION ALL
          SELECT NULL::uuid, greatest(c.lo, b.first - interval '5 minutes'), least(c.hi, b.last)
            FROM changed c CROSS JOIN (SELECT min(r.period_end) AS first, max(r.period_end) AS last
                                         FROM cebd_record r WHERE r.tenant = ${T}) b
           WHERE c.kind = ANY(${sql.param([...AREA_WIDE])}::text[]) AND b.first IS NOT NULL
        ), zone AS (
          SELECT time_zone AS z FROM settlement_area WHERE uuid = ${T}
        ), days AS (
          -- The area days each span touches, with the points whose records decide (none: any record).
          SELECT d.day AT TIME ZONE zone.z AS day_start, (d.day + interval '1 day') AT TIME ZONE zone.z AS day_end,
                 array_agg(DISTINCT s.cp) FILTER (WHERE s.cp IS NOT NULL) AS cps, bool_or(s.cp IS NULL) AS whole
            FROM spans s CROSS JOIN zone
           CROSS JOIN LATERAL generate_series(date_trunc('day', s.lo AT TIME ZONE zone.z),
                                              (s.hi - interval '1 microsecond') AT TIME ZONE zone.z,
                                              interval '1 day') AS d(day)
           WHERE s.lo < s.hi
           GROUP BY 1, 2
        ), marked AS (
          INSERT INTO cebd_recheck (tenant, day_start, day_end, reason)
          SELECT ${T}, d.day_start, d.day_end, ${reason} FROM days d
           WHERE (d.whole AND EXISTS (SELECT 1 FROM cebd_record r WHERE r.tenant = ${T}
                                         AND r.period_end > d.day_start AND r.period_end <= d.day_end))
              OR (NOT d.whole AND EXISTS (SELECT 1 FROM cebd_record r WHERE r.tenant = ${T}
                                             AND r.consumption_point_uuid = ANY(d.cps)
                                             AND r.period_end > d.day_start AND r.period_end <= d.day_end))
          ON CONFLICT (tenant, day_start) DO NOTHING
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM marked`,
  );
  return marked?.n ?? 0;
}

/**
 * Whether the month-end run (onlyDue) checks the chunk [start, end): a mark on one of its days, or a
 * record in it not checked yet (checked_at IS NULL: its file's check has not run, or failed; the
 * partial index of migration 0375 answers it).
 */
export async function cebdChunkDue(ctx: ServiceContext, chunk: { start: string; end: string }): Promise<boolean> {
  const T = sql`${ctx.tenant.uuid}::uuid`;
  const S = sql`${chunk.start}::timestamptz`;
  const E = sql`${chunk.end}::timestamptz`;
  const [due] = await rows<{ due: boolean }>(
    ctx.db,
    sql`SELECT EXISTS (SELECT 1 FROM cebd_recheck m WHERE m.tenant = ${T} AND m.day_start < ${E} AND m.day_end > ${S})
            OR EXISTS (SELECT 1 FROM cebd_record r WHERE r.tenant = ${T} AND r.checked_at IS NULL
                          AND r.period_end > ${S} AND r.period_end <= ${E}) AS due`,
  );
  return due?.due === true;
}

/**
 * Deletes the marks of the days inside [start, end) (a chunk that checked its whole day; a first or
 * last day a run's period clips keeps its mark), in the chunk's transaction: the mark goes with the
 * check that answers it, or stays when that check rolls back.
 */
export async function clearCebdRecheck(ctx: ServiceContext, chunk: { start: string; end: string }): Promise<void> {
  await ctx.db.execute(
    sql`DELETE FROM cebd_recheck WHERE tenant = ${ctx.tenant.uuid}::uuid
          AND day_start >= ${chunk.start}::timestamptz AND day_end <= ${chunk.end}::timestamptz`,
  );
}
