import type { ProcedureResultStatus, ReportFormat, ReportLanguage } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { jsonColumn, rows, type Executor } from '../domain/sql.js';

/** One stored order (migration 0410 report_order). */
export interface ReportOrder {
  id: number;
  tenant: string;
  dataLogId: number;
  reportName: string;
  format: ReportFormat;
  language: ReportLanguage;
  zoneId: string;
  periodStart: string;
  periodEnd: string;
  refs: { uuid: string; type: string }[];
  refsNames: Record<string, string>;
  parameters: Record<string, unknown>;
  destinations: unknown[];
  processingId: number | null;
  refTime: string | null;
  statuses: ProcedureResultStatus[];
  organisations: string[] | null;
  username: string;
  /** A scheduled report's schedule (the stored destination's password is encrypted for it) and its owner. */
  scheduleUuid: string | null;
  scheduleOwner: string | null;
}

export type NewReportOrder = Omit<ReportOrder, 'id'> & { reorderOf?: number | null };

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

export async function insertOrder(ex: Executor, order: NewReportOrder): Promise<number> {
  const [row] = await rows<{ id: number }>(
    ex,
    sql`INSERT INTO report_order (tenant, data_log_id, report_name, format, language, zone_id, period_start, period_end,
                                  refs, refs_names, parameters, destinations, processing_id, ref_time, statuses,
                                  organisation_uuids, username, reorder_of, schedule_uuid, schedule_owner)
        VALUES (${order.tenant}::uuid, ${order.dataLogId}, ${order.reportName}, ${order.format}, ${order.language},
                ${order.zoneId}, ${order.periodStart}::timestamptz, ${order.periodEnd}::timestamptz, ${json(order.refs)},
                ${json(order.refsNames)}, ${json(order.parameters)}, ${json(order.destinations)},
                ${order.processingId}::bigint, ${order.refTime}::timestamptz, ${sql.param([...order.statuses])}::text[],
                ${order.organisations === null ? null : sql`${sql.param([...order.organisations])}::uuid[]`},
                ${order.username}, ${order.reorderOf ?? null}::bigint, ${order.scheduleUuid}::uuid,
                ${order.scheduleOwner})
        RETURNING id`,
  );
  return Number(row!.id);
}

const SELECT_ORDER = sql`SELECT id, tenant, data_log_id AS "dataLogId", report_name AS "reportName", format, language,
       zone_id AS "zoneId",
       to_char(period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "periodStart",
       to_char(period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "periodEnd",
       refs, refs_names AS "refsNames", parameters, destinations, processing_id AS "processingId",
       to_char(ref_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "refTime",
       statuses, organisation_uuids::text[] AS organisations, username,
       schedule_uuid::text AS "scheduleUuid", schedule_owner AS "scheduleOwner"
  FROM report_order`;

function order(row: ReportOrder): ReportOrder {
  return {
    ...row,
    id: Number(row.id),
    dataLogId: Number(row.dataLogId),
    processingId: row.processingId === null ? null : Number(row.processingId),
    refs: jsonColumn(row.refs, []),
    refsNames: jsonColumn(row.refsNames, {}),
    parameters: jsonColumn(row.parameters, {}),
    destinations: jsonColumn(row.destinations, []),
  };
}

export async function findOrder(ex: Executor, tenant: string, id: number): Promise<ReportOrder | null> {
  const [row] = await rows<ReportOrder>(ex, sql`${SELECT_ORDER} WHERE tenant = ${tenant}::uuid AND id = ${id}`);
  return row ? order(row) : null;
}

export async function findOrderOfEntry(ex: Executor, tenant: string, dataLogId: number): Promise<ReportOrder | null> {
  const [row] = await rows<ReportOrder>(
    ex,
    sql`${SELECT_ORDER} WHERE tenant = ${tenant}::uuid AND data_log_id = ${dataLogId}`,
  );
  return row ? order(row) : null;
}

export async function markStarted(ex: Executor, tenant: string, id: number): Promise<void> {
  await ex.execute(
    sql`UPDATE report_order SET started_at = now(), finished_at = NULL, row_count = NULL
         WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
}

export async function markFinished(
  ex: Executor,
  tenant: string,
  id: number,
  outcome: { rowCount: number | null; processingId: number | null },
): Promise<void> {
  await ex.execute(
    sql`UPDATE report_order SET finished_at = now(), row_count = ${outcome.rowCount}::bigint,
                                processing_id = coalesce(${outcome.processingId}::bigint, processing_id)
         WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
}

/** The names of the entities an order names (entity_latest: the latest name), with their kinds. */
export async function entityNames(
  ex: Executor,
  tenant: string,
  uuids: readonly string[],
): Promise<{ uuid: string; type: string; name: string }[]> {
  if (uuids.length === 0) return [];
  return rows(
    ex,
    sql`SELECT entity_uuid::text AS uuid, type, name FROM entity_latest
         WHERE tenant = ${tenant}::uuid AND entity_uuid = ANY(${sql.param([...uuids])}::uuid[])`,
  );
}

/**
 * The result a source report reads (calls.md §4): the newest result of the procedure covering the
 * period with one of the statuses, an approved one before any other (a consumer's corrected versions
 * are older ones the approved one replaced).
 */
export async function newestResult(
  ex: Executor,
  tenant: string,
  query: { procedure: string; statuses: readonly string[]; start: string; end: string; tpa: boolean },
): Promise<number | null> {
  const [row] = await rows<{ id: number }>(
    ex,
    sql`SELECT id FROM procedure_result
         WHERE tenant = ${tenant}::uuid AND procedure_name = ${query.procedure}
           AND status = ANY(${sql.param([...query.statuses])}::text[])
           AND period_start <= ${query.start}::timestamptz AND period_end >= ${query.end}::timestamptz
           AND coalesce(run_options ->> 'tpa', 'false') = ${String(query.tpa)}
         ORDER BY (status = 'approved') DESC, id DESC
         LIMIT 1`,
  );
  return row ? Number(row.id) : null;
}

/** A named result: its procedure, status and whether it is a TPA settlement version, if it is the area's. */
export async function resultOf(
  ex: Executor,
  tenant: string,
  id: number,
): Promise<{ procedure: string; status: string; tpa: boolean } | null> {
  const [row] = await rows<{ procedure: string; status: string; tpa: boolean }>(
    ex,
    sql`SELECT procedure_name AS procedure, status, coalesce(run_options ->> 'tpa', 'false') = 'true' AS tpa
          FROM procedure_result WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
  return row ?? null;
}
