import {
  DATA_LOG_CATEGORY_OF,
  DASHBOARD_DAYS,
  MESSAGE_STATUS_BUCKET,
  MESSAGE_TYPES,
  PROCEDURE_CATEGORY_OF,
  PROCEDURE_STATUS_BUCKET,
  type CebdDay,
  type CebdDeliveryInfo,
  type CompletenessRow,
  type DashboardCategory,
  type DashboardEvent,
  type OffsetLag,
  type StatisticsBucket,
} from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { checkedRecords, inSum } from '../processing/allocated-energy.js';
import { rows, type Executor } from '../domain/sql.js';
import { organisationFilter, type VisibleOrganisations } from '../organisation/visibility.js';

/**
 * The SQL of the statistics (issue 9 item 6): every figure is one aggregate over the area's rows
 * (row-level security holds; the tenant is still named so the area's indexes lead). The mappings of
 * contracts/statistics.ts (process and message type -> category, status -> column) enter each
 * statement as arrays, so the categories are written once.
 */

export interface Range {
  start: string;
  end: string;
}

/** A mapping of contracts as a two-column relation (`unnest` of two arrays). */
const mapping = (entries: [string, string][]): SQL =>
  sql`SELECT * FROM unnest(${sql.param(entries.map(([k]) => k))}::text[], ${sql.param(entries.map(([, v]) => v))}::text[]) AS m(key, value)`;
const pairs = (record: Readonly<Record<string, string | undefined>>): [string, string][] =>
  Object.entries(record).flatMap(([k, v]) => (v === undefined ? [] : [[k, v] as [string, string]]));

const PROCEDURE_CATEGORY = mapping(pairs(PROCEDURE_CATEGORY_OF));
const MESSAGE_CATEGORY = mapping(pairs(DATA_LOG_CATEGORY_OF));
const PROCEDURE_BUCKET = mapping(pairs(PROCEDURE_STATUS_BUCKET));
const MESSAGE_BUCKET = mapping(pairs(MESSAGE_STATUS_BUCKET));

/**
 * Runs (procedure_result, by start of execution) and files (data_log, by log time) in the range,
 * counted per category and statistics column.
 */
export async function countByCategory(
  ex: Executor,
  tenant: string,
  range: Range,
): Promise<{ category: DashboardCategory; bucket: StatisticsBucket; n: number }[]> {
  return rows(
    ex,
    sql`WITH pc AS (${PROCEDURE_CATEGORY}), mc AS (${MESSAGE_CATEGORY}),
             pb AS (${PROCEDURE_BUCKET}), mb AS (${MESSAGE_BUCKET}),
             counted AS (
               SELECT pc.value AS category, pb.value AS bucket, count(*) AS n
                 FROM procedure_result r
                 JOIN pc ON pc.key = r.procedure_name
                 JOIN pb ON pb.key = r.status
                WHERE r.tenant = ${tenant}::uuid
                  AND r.execute_start_time >= ${range.start}::timestamptz
                  AND r.execute_start_time < ${range.end}::timestamptz
                GROUP BY 1, 2
               UNION ALL
               SELECT mc.value, mb.value, count(*)
                 FROM data_log d
                 JOIN mc ON mc.key = d.message_type
                 JOIN mb ON mb.key = d.message_status
                WHERE d.tenant = ${tenant}::uuid
                  AND d.log_time_stamp >= ${range.start}::timestamptz
                  AND d.log_time_stamp < ${range.end}::timestamptz
                GROUP BY 1, 2)
        SELECT category, bucket, sum(n)::int AS n FROM counted GROUP BY 1, 2`,
  );
}

/**
 * Distinct consumption points per category (contracts CPID_CATEGORIES): the records of the CEBD files
 * received in the range, the records preprocessed in it, and the records allocated in it (by the
 * allocation's own category; a train run's energy is combine's).
 */
export async function uniqueConsumptionPoints(
  ex: Executor,
  tenant: string,
  range: Range,
): Promise<{ category: DashboardCategory; n: number }[]> {
  const inRange = (column: SQL) =>
    sql`${column} >= ${range.start}::timestamptz AND ${column} < ${range.end}::timestamptz`;
  return rows(
    ex,
    sql`SELECT 'cebd-import' AS category, count(DISTINCT p.consumption_point_uuid)::int AS n
          FROM data_log d
          JOIN cebd_record p ON p.data_log_id = d.id AND p.tenant = d.tenant
         WHERE d.tenant = ${tenant}::uuid AND d.message_type = ${MESSAGE_TYPES.cebdImport}
           AND ${inRange(sql`d.log_time_stamp`)}
        UNION ALL
        SELECT 'preprocessing', count(DISTINCT c.consumption_point_uuid)::int
          FROM cebd_record c
         WHERE c.tenant = ${tenant}::uuid AND ${inRange(sql`c.checked_at`)}
        UNION ALL
        SELECT CASE a.category WHEN 'train-run' THEN 'combine' ELSE a.category END,
               count(DISTINCT a.consumption_point_uuid)::int
          FROM allocated_energy_hourly a
         WHERE a.tenant = ${tenant}::uuid AND ${inRange(sql`a.allocated_at`)}
         GROUP BY 1`,
  );
}

/** The area's job runs among `jobIds` (the jobs waiting in pg-boss), counted per category. */
export async function countWaitingJobs(
  ex: Executor,
  tenant: string,
  jobIds: readonly string[],
): Promise<{ category: DashboardCategory; n: number }[]> {
  if (jobIds.length === 0) return [];
  return rows(
    ex,
    sql`WITH pc AS (${PROCEDURE_CATEGORY}), mc AS (${MESSAGE_CATEGORY})
        SELECT coalesce(pc.value, mc.value) AS category, count(*)::int AS n
          FROM job_run j
          LEFT JOIN procedure_result r ON r.job_id = j.id AND r.tenant = j.tenant
          LEFT JOIN pc ON pc.key = r.procedure_name
          LEFT JOIN data_log d ON d.id = j.data_log_id AND d.tenant = j.tenant
          LEFT JOIN mc ON mc.key = d.message_type
         WHERE j.tenant = ${tenant}::uuid AND j.id = ANY(${sql.param([...jobIds])}::uuid[])
           AND coalesce(pc.value, mc.value) IS NOT NULL
         GROUP BY 1`,
  );
}

/** Processing events recorded in the range: incidents per process, code and severity (HIGH first). */
export async function eventsByProcess(ex: Executor, tenant: string, range: Range): Promise<DashboardEvent[]> {
  return rows(
    ex,
    sql`SELECT e.process_name AS "processName", e.error_code AS "errorCode", e.severity,
               sum(e.incidents)::int AS incidents
          FROM processing_event e
         WHERE e.tenant = ${tenant}::uuid
           AND e.created_at >= ${range.start}::timestamptz AND e.created_at < ${range.end}::timestamptz
         GROUP BY 1, 2, 3
         ORDER BY array_position(ARRAY['HIGH', 'MEDIUM', 'LOW'], e.severity), 4 DESC, 1, 2`,
  );
}

/**
 * The last DASHBOARD_DAYS days in `zone` (today included), each with the CEBD files received that
 * day (by log time), their records (cebd_record rows whose current values came in those files) and
 * consumption points, and how many of those records cebd-preprocessing checked, found valid (no
 * code, not a duplicate) or coded: one grouped scan of the files' rows (cebd_record_file_idx).
 * The days are an integer series, so the planner knows there are seven.
 */
export async function cebdDays(ex: Executor, tenant: string, zone: string, now: string): Promise<CebdDay[]> {
  return rows(
    ex,
    sql`WITH days AS (
          SELECT t.today - k AS day, (t.today - k)::timestamp AT TIME ZONE ${zone} AS day_start,
                 (t.today - k + 1)::timestamp AT TIME ZONE ${zone} AS day_end
            FROM (SELECT (${now}::timestamptz AT TIME ZONE ${zone})::date AS today) t,
                 generate_series(0, ${DASHBOARD_DAYS - 1}::int) AS k),
        files AS MATERIALIZED (
          SELECT f.id, f.message_status, days.day
            FROM days
            JOIN data_log f ON f.tenant = ${tenant}::uuid AND f.message_type = ${MESSAGE_TYPES.cebdImport}
                           AND f.log_time_stamp >= days.day_start AND f.log_time_stamp < days.day_end),
        records AS (
          SELECT files.day, count(*)::int AS records, count(DISTINCT p.consumption_point_uuid)::int AS points,
                 count(p.codes)::int AS preprocessed,
                 count(*) FILTER (WHERE p.codes = '{}' AND NOT p.duplicate)::int AS valid,
                 count(*) FILTER (WHERE p.codes <> '{}')::int AS coded
            FROM files JOIN cebd_record p ON p.data_log_id = files.id AND p.tenant = ${tenant}::uuid
           GROUP BY files.day),
        received AS (
          SELECT day, count(*)::int AS files,
                 count(*) FILTER (WHERE message_status IN ('ERROR', 'REJECTED', 'FAILED'))::int AS failed
            FROM files GROUP BY day)
        SELECT to_char(days.day, 'YYYY-MM-DD') AS day, coalesce(f.files, 0) AS files,
               coalesce(f.failed, 0) AS "failedFiles",
               coalesce(r.records, 0) AS records, coalesce(r.points, 0) AS "consumptionPoints",
               coalesce(r.preprocessed, 0) AS preprocessed, coalesce(r.valid, 0) AS valid,
               coalesce(r.coded, 0) AS "withErrors"
          FROM days
          LEFT JOIN received f ON f.day = days.day
          LEFT JOIN records r ON r.day = days.day
         ORDER BY days.day`,
  );
}

/** The day a record's 5-minute period lies in (its period end in (day, day + 1 day]). */
const periodDay = (periodEnd: SQL) => sql`date_trunc('day', ${periodEnd} - interval '1 microsecond')`;

/**
 * Work waiting per stage: CEBD records not checked yet (codes NULL); valid checked records of a
 * unit without allocated energy; live train runs without a check. Each with the oldest waiting
 * item's time (a train run's operating day).
 *
 * Energy is allocated to a valid checked record, so the allocation's sums count a subset of the
 * checked records: a day whose counts agree has nothing waiting. The counts per day come from the
 * record table's (tenant, period_end) key and the allocation's hour index (its sums count their
 * records); the exact anti-join then runs on the days that differ only (usually the last few), not
 * on the whole history. A day holds the records whose period lies in it (period end in
 * (day, day + 1]), as the allocation's hours do (migration 0380).
 */
export async function offsetLag(ex: Executor, tenant: string): Promise<OffsetLag> {
  const valid = sql`c.codes = '{}' AND NOT c.duplicate AND c.traction_unit_uuid IS NOT NULL`;
  return rows(
    ex,
    sql`WITH pre AS (
          SELECT ${periodDay(sql`c.period_end`)} AS d, count(*) - count(c.codes) AS unchecked,
                 count(*) FILTER (WHERE ${valid}) AS valid
            FROM cebd_record c WHERE c.tenant = ${tenant}::uuid GROUP BY 1),
        alloc AS (
          SELECT date_trunc('day', hour_start) AS d, sum(records) AS n FROM allocated_energy_hourly
           WHERE tenant = ${tenant}::uuid GROUP BY 1),
        behind_pre AS (
          SELECT pre.d FROM pre WHERE pre.unchecked > 0),
        behind_alloc AS (
          SELECT pre.d FROM pre LEFT JOIN alloc ON alloc.d = pre.d WHERE pre.valid > coalesce(alloc.n, 0))
        SELECT 'cebd-preprocessing' AS stage, count(*)::int AS waiting, rw_iso(min(p.period_end)) AS oldest
          FROM behind_pre b
          JOIN cebd_record p ON p.tenant = ${tenant}::uuid
                            AND p.period_end > b.d AND p.period_end <= b.d + interval '1 day'
         WHERE p.codes IS NULL
        UNION ALL
        SELECT 'combine', count(*)::int, rw_iso(min(c.period_end))
          FROM behind_alloc b
          JOIN ${checkedRecords} c ON c.tenant = ${tenant}::uuid
                                  AND c.period_end > b.d AND c.period_end <= b.d + interval '1 day'
         WHERE ${valid}
           AND NOT EXISTS (SELECT 1 FROM allocated_energy_hourly a WHERE ${inSum(sql`a`, sql`c`)})
        UNION ALL
        SELECT 'train-preprocessing', count(*)::int, to_char(min(r.operating_day), 'YYYY-MM-DD')
          FROM train_run r
         WHERE r.tenant = ${tenant}::uuid AND r.superseded_at IS NULL AND NOT r.deleted
           AND NOT EXISTS (SELECT 1 FROM train_run_check k WHERE k.tenant = ${tenant}::uuid AND k.train_run_id = r.id)`,
  );
}

/**
 * Active traction units with active consumption points, each point with its latest CEBD record
 * (a backward probe of cebd_record_point_idx), kept when a point's latest record is older than
 * `thresholdHours` before `now` or it never delivered (contracts completenessRowSchema states the reading).
 */
export async function incompleteUnits(
  ex: Executor,
  tenant: string,
  thresholdHours: number,
  now: string,
  visible: VisibleOrganisations,
): Promise<CompletenessRow[]> {
  const hoursSince = (t: SQL) => sql`floor(extract(epoch FROM ${now}::timestamptz - ${t}) / 3600)::int`;
  return rows(
    ex,
    sql`WITH points AS (
          SELECT u.entity_uuid AS unit, u.name, u.evn, u.owner_ref, c.entity_uuid AS point,
                 coalesce(c.attributes ->> 'cpid', c.name) AS cpid,
                 (SELECT max(p.period_end) FROM cebd_record p
                   WHERE p.tenant = ${tenant}::uuid AND p.consumption_point_uuid = c.entity_uuid) AS last
            FROM entity_latest u
            JOIN entity_latest c ON c.tenant = u.tenant AND c.type = 'consumptionpoint' AND c.active
                                AND c.unit_ref = u.entity_uuid::text
           WHERE u.tenant = ${tenant}::uuid AND u.type = 'tractionunit' AND u.active),
        marked AS (
          SELECT points.*, last IS NULL OR last < ${now}::timestamptz - make_interval(hours => ${thresholdHours}::int) AS missing
            FROM points)
        SELECT m.unit AS uuid, m.name, m.evn, o.entity_uuid AS "ownerUuid", o.name AS "ownerName",
               CASE WHEN bool_or(m.last IS NULL) THEN NULL ELSE rw_iso(min(m.last)) END AS "lastDelivery",
               CASE WHEN bool_or(m.last IS NULL) THEN NULL ELSE ${hoursSince(sql`min(m.last)`)} END AS "hoursMissing",
               jsonb_agg(jsonb_build_object('uuid', m.point, 'cpid', m.cpid, 'lastDelivery', rw_iso(m.last),
                         'hoursMissing', ${hoursSince(sql`m.last`)}, 'missing', m.missing) ORDER BY m.cpid)
                 AS "consumptionPoints"
          FROM marked m
          LEFT JOIN entity_latest o ON o.tenant = ${tenant}::uuid AND o.type = 'organisation'
                                   AND o.entity_uuid::text = m.owner_ref
         WHERE ${organisationFilter(sql`o.entity_uuid`, visible)}
         GROUP BY m.unit, m.name, m.evn, o.entity_uuid, o.name
        HAVING bool_or(m.missing)
         ORDER BY bool_or(m.last IS NULL) DESC, min(m.last) NULLS FIRST, m.name`,
  );
}

/**
 * Organisations of `orgType` with the active units they own and those units' active consumption
 * points: counts, points with a record in the last DASHBOARD_DAYS days, the latest record, and the
 * newest log time among the files that brought each point's latest record.
 */
export async function deliveryInfo(
  ex: Executor,
  tenant: string,
  orgType: string,
  now: string,
  visible: VisibleOrganisations,
): Promise<CebdDeliveryInfo[]> {
  return rows(
    ex,
    sql`WITH orgs AS (
          SELECT o.entity_uuid, o.name FROM entity_latest o
           WHERE o.tenant = ${tenant}::uuid AND o.type = 'organisation' AND o.attributes -> 'organisationTypes' ? ${orgType}
             AND ${organisationFilter(sql`o.entity_uuid`, visible)}),
        units AS (
          SELECT u.entity_uuid, u.owner_ref FROM entity_latest u
           WHERE u.tenant = ${tenant}::uuid AND u.type = 'tractionunit' AND u.active
             AND u.owner_ref IN (SELECT entity_uuid::text FROM orgs)),
        latest AS (
          SELECT c.entity_uuid, c.unit_ref, l.period_end, l.data_log_id
            FROM entity_latest c
            LEFT JOIN LATERAL (SELECT p.period_end, p.data_log_id FROM cebd_record p
                                WHERE p.tenant = ${tenant}::uuid AND p.consumption_point_uuid = c.entity_uuid
                                ORDER BY p.period_end DESC LIMIT 1) l ON true
           WHERE c.tenant = ${tenant}::uuid AND c.type = 'consumptionpoint' AND c.active
             AND c.unit_ref IN (SELECT entity_uuid::text FROM units))
        SELECT o.entity_uuid AS "organisationUuid", o.name,
               count(DISTINCT u.entity_uuid)::int AS "tractionUnits",
               count(DISTINCT l.entity_uuid)::int AS "consumptionPoints",
               count(DISTINCT l.entity_uuid) FILTER (
                 WHERE l.period_end >= ${now}::timestamptz - make_interval(days => ${DASHBOARD_DAYS}::int))::int
                 AS "deliveringConsumptionPoints",
               rw_iso(max(l.period_end)) AS "lastDelivery",
               rw_iso(max(d.log_time_stamp)) AS "lastReceived"
          FROM orgs o
          LEFT JOIN units u ON u.owner_ref = o.entity_uuid::text
          LEFT JOIN latest l ON l.unit_ref = u.entity_uuid::text
          LEFT JOIN data_log d ON d.id = l.data_log_id AND d.tenant = ${tenant}::uuid
         GROUP BY o.entity_uuid, o.name
         ORDER BY o.name`,
  );
}
