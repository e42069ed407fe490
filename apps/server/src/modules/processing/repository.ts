import {
  EVENT_SUMMARY_ROWS,
  UNDER_WAY_STATUSES,
  type EntityRef,
  type ProcedureName,
  type ProcedureResult,
  type ProcedureResultStatus,
  type ProcedureRunOptions,
  type ProcessingEvent,
  type ProcessingEventFilter,
  type ProcessingEventSummaryRow,
  type ProcessLogFilter,
  type Severity,
} from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { boundedText } from '../../db/storable-text.js';
import { rows, type Executor } from '../domain/sql.js';
import type { VisibleOrganisations } from '../organisation/visibility.js';

/**
 * The SQL of procedure_result, procedure_chunk and processing_event (migration 0130). Every function
 * runs on the executor it is given (area-bound: row-level security holds); the tenant is still named
 * in each WHERE so the area's indexes lead.
 */

/** Longest message stored on a result (an error's stack is not for screens). */
const MAX_MESSAGE = 4000;
/** Bounded and storable (db/storable-text.ts): an event's message may quote what a file held. */
export const clip = (message: string | null | undefined): string | null =>
  message == null ? null : boundedText(message, MAX_MESSAGE);

/**
 * A result's progress in days and records (contracts progressCounts): its finished chunks (area days)
 * of the days counted when it started, and the records they processed. One probe of
 * procedure_chunk's key per result; null before the run starts (and for runs older than migration 0362).
 */
const PROGRESS_COUNTS = sql`CASE WHEN r.chunks_total IS NULL THEN NULL ELSE (
    SELECT json_build_object('unit', 'days', 'done', count(*)::int, 'total', r.chunks_total,
                             'records', sum(c.records)::bigint)
      FROM procedure_chunk c WHERE c.procedure_result_id = r.id) END`;

const RESULT_COLUMNS = sql`r.id::int AS id, r.uuid, r.procedure_name AS "procedureName", r.status,
  rw_iso(r.execute_start_time) AS "executeStartTime", rw_iso(r.execute_end_time) AS "executeEndTime",
  rw_iso(r.ref_time) AS "refTime", r.entity_refs AS "entityRefs", r.entity_name AS "entityName",
  rw_iso(r.period_start) AS "periodStart", rw_iso(r.period_end) AS "periodEnd",
  r.progress::float8 AS progress, r.message, r.username, r.job_id AS "jobId", r.run_options AS "runOptions",
  ${PROGRESS_COUNTS} AS "progressCounts"`;

export interface NewResult {
  tenant: string;
  procedureName: ProcedureName;
  periodStart: string;
  periodEnd: string;
  refs: readonly EntityRef[];
  entityName: string | null;
  refTime: string | null;
  username: string;
  rerunOf?: number | null;
  /** What made the system start it (the processing chain); undefined: a person did. */
  cause?: string | null;
  /** The run's extra params (migration 0280); default none. */
  options?: ProcedureRunOptions;
}

/** A new run (initial); the exclusion constraint refuses it while one of the same scope is under way. */
export async function insertResult(ex: Executor, run: NewResult): Promise<ProcedureResult> {
  const [result] = await rows<ProcedureResult>(
    ex,
    sql`WITH r AS (
          INSERT INTO procedure_result (tenant, procedure_name, period_start, period_end, entity_refs, ref_uuids,
                                        entity_name, ref_time, username, rerun_of, cause, message,
                                        run_options)
          VALUES (${run.tenant}::uuid, ${run.procedureName}, ${run.periodStart}::timestamptz,
                  ${run.periodEnd}::timestamptz, ${JSON.stringify(run.refs)}::jsonb,
                  ${sql.param(run.refs.map((r) => r.uuid))}::uuid[], ${run.entityName}, ${run.refTime}::timestamptz,
                  ${run.username}, ${run.rerunOf ?? null}, ${clip(run.cause)}, ${clip(run.cause)},
                  ${JSON.stringify(run.options ?? {})}::jsonb)
          RETURNING *)
        SELECT ${RESULT_COLUMNS} FROM r`,
  );
  return result!;
}

/**
 * The refs of a run that name nothing of the area: neither one of its entities nor the area itself.
 * Another area's entity is among them (row-level security hides it, and the tenant is named too).
 */
export async function foreignRefs(ex: Executor, tenant: string, uuids: readonly string[]): Promise<string[]> {
  if (uuids.length === 0) return [];
  const found = await rows<{ uuid: string }>(
    ex,
    sql`SELECT u::text AS uuid FROM unnest(${sql.param([...uuids])}::uuid[]) u
         WHERE u <> ${tenant}::uuid
           AND NOT EXISTS (SELECT 1 FROM entity e WHERE e.uuid = u AND e.tenant = ${tenant}::uuid)`,
  );
  return found.map((r) => r.uuid);
}

export async function findResult(ex: Executor, tenant: string, id: number): Promise<ProcedureResult | undefined> {
  const [result] = await rows<ProcedureResult>(
    ex,
    sql`SELECT ${RESULT_COLUMNS} FROM procedure_result r WHERE r.tenant = ${tenant}::uuid AND r.id = ${id}`,
  );
  return result;
}

/** What made the system start a run (migration 0170), or null when a person started it. */
export async function resultCause(ex: Executor, id: number): Promise<string | null> {
  const [found] = await rows<{ cause: string | null }>(ex, sql`SELECT cause FROM procedure_result WHERE id = ${id}`);
  return found?.cause ?? null;
}

/** The extra params a run was started with (migration 0280). */
export async function resultOptions(ex: Executor, id: number): Promise<ProcedureRunOptions> {
  const [found] = await rows<{ options: ProcedureRunOptions | null }>(
    ex,
    sql`SELECT run_options AS options FROM procedure_result WHERE id = ${id}`,
  );
  return found?.options ?? {};
}

/** A run under way of the procedure whose period overlaps [start, end). */
export async function findUnderWay(
  ex: Executor,
  tenant: string,
  procedureName: ProcedureName,
  period?: { start: string; end: string },
  options: { besideArrivalChecks?: boolean } = {},
): Promise<ProcedureResult | undefined> {
  const overlap = period
    ? sql`AND tstzrange(r.period_start, r.period_end) && tstzrange(${period.start}::timestamptz, ${period.end}::timestamptz)`
    : sql``;
  // A CEBD file's check on arrival runs beside other runs (migration 0376): it refuses none.
  const beside = options.besideArrivalChecks
    ? sql`AND (r.run_options ->> 'followers') IS DISTINCT FROM 'processed'`
    : sql``;
  const [result] = await rows<ProcedureResult>(
    ex,
    sql`SELECT ${RESULT_COLUMNS} FROM procedure_result r
         WHERE r.tenant = ${tenant}::uuid AND r.procedure_name = ${procedureName}
           AND r.status = ANY(${sql.param([...UNDER_WAY_STATUSES])}::text[]) ${overlap} ${beside}
         ORDER BY r.execute_start_time DESC LIMIT 1`,
  );
  return result;
}

export interface ResultUpdate {
  status?: ProcedureResultStatus;
  progress?: number;
  message?: string | null;
  jobId?: string;
  /** Sets execute_end_time to now (a finished run) or clears it (a resumed one). */
  finished?: boolean;
  /** The area days the run's period is cut into (set when it starts). */
  chunksTotal?: number;
}

export async function updateResult(ex: Executor, id: number, update: ResultUpdate): Promise<void> {
  const sets: SQL[] = [];
  if (update.status !== undefined) sets.push(sql`status = ${update.status}`);
  if (update.progress !== undefined) sets.push(sql`progress = ${Math.min(1, Math.max(0, update.progress))}`);
  if (update.message !== undefined) sets.push(sql`message = ${clip(update.message)}`);
  if (update.jobId !== undefined) sets.push(sql`job_id = ${update.jobId}::uuid`);
  if (update.chunksTotal !== undefined) sets.push(sql`chunks_total = ${update.chunksTotal}`);
  if (update.finished !== undefined) {
    sets.push(update.finished ? sql`execute_end_time = now()` : sql`execute_end_time = NULL`);
  }
  if (sets.length === 0) return;
  await ex.execute(sql`UPDATE procedure_result SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
}

/** The chunks of a run already committed (their starts, ISO). */
export async function finishedChunks(ex: Executor, resultId: number): Promise<Set<string>> {
  const found = await rows<{ start: string }>(
    ex,
    sql`SELECT rw_iso(chunk_start) AS start FROM procedure_chunk WHERE procedure_result_id = ${resultId}`,
  );
  return new Set(found.map((c) => new Date(c.start).toISOString()));
}

/**
 * A chunk is done: its row (the node that did it, and done_count 1; a day done again counts up), and
 * the result's progress, in the chunk's own transaction.
 */
export async function markChunkDone(
  ex: Executor,
  tenant: string,
  resultId: number,
  chunk: { start: string; end: string },
  total: number,
  /** The records the chunk processed, when its procedure counts them (ChunkReport.records). */
  records: number | null = null,
): Promise<void> {
  await ex.execute(
    sql`INSERT INTO procedure_chunk (procedure_result_id, tenant, chunk_start, chunk_end, records)
        VALUES (${resultId}, ${tenant}::uuid, ${chunk.start}::timestamptz, ${chunk.end}::timestamptz, ${records})
        ON CONFLICT (procedure_result_id, chunk_start) DO UPDATE
          SET finished_at = now(), records = EXCLUDED.records, node = rw_node(),
              done_count = procedure_chunk.done_count + 1`,
  );
  await ex.execute(
    sql`UPDATE procedure_result
           SET progress = least(1, (SELECT count(*) FROM procedure_chunk WHERE procedure_result_id = ${resultId})::numeric / ${total})
         WHERE id = ${resultId}`,
  );
}

const RESULT_SORT: Record<string, SQL> = {
  executeStartTime: sql`r.execute_start_time`,
  executeEndTime: sql`r.execute_end_time`,
  status: sql`r.status`,
  periodStart: sql`r.period_start`,
  id: sql`r.id`,
};

const overlaps = (range: { start: string; end: string }) =>
  sql`tstzrange(r.period_start, r.period_end) && tstzrange(${range.start}::timestamptz, ${range.end}::timestamptz, '[]')`;

export interface ResultQuery {
  page: number;
  size: number;
  sortBy: keyof typeof RESULT_SORT;
  descendingOrder: boolean;
  procedureName?: ProcedureName;
  observationTimeRange?: { start: string; end: string };
}

function resultClauses(tenant: string, query: ResultQuery, filter: ProcessLogFilter): SQL[] {
  const where: SQL[] = [sql`r.tenant = ${tenant}::uuid`];
  if (query.procedureName) where.push(sql`r.procedure_name = ${query.procedureName}`);
  for (const range of [query.observationTimeRange, filter.observationTimeRange, filter.operatingDayTimeRange]) {
    if (range) where.push(overlaps(range));
  }
  if (filter.processingTime) {
    where.push(
      sql`r.execute_start_time BETWEEN ${filter.processingTime.start}::timestamptz AND ${filter.processingTime.end}::timestamptz`,
    );
  }
  if (filter.statuses?.length) where.push(sql`r.status = ANY(${sql.param(filter.statuses)}::text[])`);
  if (filter.userId) where.push(sql`r.username = ${filter.userId}`);
  if (filter.ids?.length) where.push(sql`r.id = ANY(${sql.param(filter.ids)}::bigint[])`);
  if (filter.tpa !== undefined) where.push(sql`coalesce((r.run_options ->> 'tpa')::boolean, false) = ${filter.tpa}`);
  const refs = [
    filter.consumptionPoint,
    ...(filter.tractionUnits ?? []),
    ...(filter.organisations ?? []),
    filter.train,
    filter.trafficCategory,
    filter.trainProfile,
  ].filter((uuid): uuid is string => uuid !== undefined);
  if (refs.length > 0) where.push(sql`r.ref_uuids && ${sql.param(refs)}::uuid[]`);
  return where;
}

/**
 * The results an actor that sees `visible` organisations may read: a run limited to refs that name
 * an organisation outside them is that organisation's (its refs would name it), so it is left out;
 * runs of the whole area stay (their per-organisation figures are filtered where they are read).
 */
function visibleResults(visible: VisibleOrganisations | undefined): SQL {
  if (visible == null) return sql`TRUE`;
  return sql`NOT EXISTS (SELECT 1 FROM entity o
                          WHERE o.tenant = r.tenant AND o.type = 'organisation' AND o.uuid = ANY(r.ref_uuids)
                            AND NOT (o.uuid = ANY(${sql.param([...visible])}::uuid[])))`;
}

export async function findResultPage(
  ex: Executor,
  tenant: string,
  query: ResultQuery,
  filter: ProcessLogFilter,
  visible: VisibleOrganisations,
): Promise<{ total: number; content: ProcedureResult[] }> {
  const where = sql.join([...resultClauses(tenant, query, filter), visibleResults(visible)], sql` AND `);
  const order = sql`${RESULT_SORT[query.sortBy] ?? RESULT_SORT.executeStartTime} ${
    query.descendingOrder ? sql`DESC NULLS LAST` : sql`ASC NULLS FIRST`
  }, r.id ${query.descendingOrder ? sql`DESC` : sql`ASC`}`;
  const [page] = await rows<{ total: number; content: ProcedureResult[] | null }>(
    ex,
    sql`WITH p AS (SELECT ${RESULT_COLUMNS} FROM procedure_result r WHERE ${where}
                    ORDER BY ${order} LIMIT ${query.size} OFFSET ${query.page * query.size})
        SELECT (SELECT count(*) FROM procedure_result r WHERE ${where})::int AS total,
               (SELECT json_agg(p) FROM p) AS content`,
  );
  return { total: page?.total ?? 0, content: page?.content ?? [] };
}

/** The latest result of a procedure (for one of the refs, overlapping a range, in statuses). */
export async function findLatestResult(
  ex: Executor,
  tenant: string,
  procedureName: ProcedureName,
  options: {
    refs?: readonly string[];
    range?: { start: string; end: string };
    statuses?: readonly string[];
    /** Only results the actor may read (visibleResults); omitted: every result of the area. */
    visible?: VisibleOrganisations;
  },
): Promise<ProcedureResult | undefined> {
  const where: SQL[] = [
    sql`r.tenant = ${tenant}::uuid`,
    sql`r.procedure_name = ${procedureName}`,
    visibleResults(options.visible),
  ];
  if (options.refs?.length) where.push(sql`r.ref_uuids && ${sql.param([...options.refs])}::uuid[]`);
  if (options.range) where.push(overlaps(options.range));
  if (options.statuses?.length) where.push(sql`r.status = ANY(${sql.param([...options.statuses])}::text[])`);
  const [result] = await rows<ProcedureResult>(
    ex,
    sql`SELECT ${RESULT_COLUMNS} FROM procedure_result r WHERE ${sql.join(where, sql` AND `)}
         ORDER BY r.execute_start_time DESC, r.id DESC LIMIT 1`,
  );
  return result;
}

export interface NewEvent {
  errorCode: string;
  severity?: Severity;
  incidents?: number;
  message?: string | null;
  entityIdentifier?: string | null;
  /** The instant the event is about (ISO). */
  time: string;
}

/** Events a chunk recorded (one statement for all of them). */
export async function insertEvents(
  ex: Executor,
  tenant: string,
  origin: { procedureResultId: number; processName: string; chunkStart: string },
  events: readonly NewEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await ex.execute(
    sql`INSERT INTO processing_event (tenant, procedure_result_id, chunk_start, process_name, error_code, severity,
                                      incidents, message, entity_identifier, event_time)
        SELECT ${tenant}::uuid, ${origin.procedureResultId}, ${origin.chunkStart}::timestamptz, ${origin.processName},
               e.code, coalesce(e.severity, 'HIGH'), coalesce(e.incidents, 1), e.message, e.entity, e.time
          FROM unnest(${sql.param(events.map((e) => e.errorCode))}::text[],
                      ${sql.param(events.map((e) => e.severity ?? null))}::text[],
                      ${sql.param(events.map((e) => e.incidents ?? null))}::int[],
                      ${sql.param(events.map((e) => clip(e.message)))}::text[],
                      ${sql.param(events.map((e) => e.entityIdentifier ?? null))}::text[],
                      ${sql.param(events.map((e) => e.time))}::timestamptz[])
               AS e(code, severity, incidents, message, entity, time)`,
  );
}

/** Running a chunk again replaces what it recorded before: its events go first. */
export async function deleteChunkEvents(ex: Executor, resultId: number, chunkStart: string): Promise<void> {
  await ex.execute(
    sql`DELETE FROM processing_event WHERE procedure_result_id = ${resultId} AND chunk_start = ${chunkStart}::timestamptz`,
  );
}

const EVENT_COLUMNS = sql`e.id::int AS id, e.procedure_result_id::int AS "procedureResultId",
  e.process_name AS "processName", e.error_code AS "errorCode", e.severity, e.incidents, e.message,
  e.entity_identifier AS "entityIdentifier", rw_iso(e.event_time) AS time`;

const EVENT_SORT: Record<string, SQL> = {
  time: sql`e.event_time`,
  errorCode: sql`e.error_code`,
  severity: sql`e.severity`,
  processName: sql`e.process_name`,
  id: sql`e.id`,
};

function eventClauses(tenant: string, filter: ProcessingEventFilter): SQL {
  const where: SQL[] = [sql`e.tenant = ${tenant}::uuid`];
  if (filter.processNames?.length) where.push(sql`e.process_name = ANY(${sql.param(filter.processNames)}::text[])`);
  if (filter.procedureResultIds?.length) {
    where.push(sql`e.procedure_result_id = ANY(${sql.param(filter.procedureResultIds)}::bigint[])`);
  }
  if (filter.errorCodes?.length) where.push(sql`e.error_code = ANY(${sql.param(filter.errorCodes)}::text[])`);
  if (filter.severities?.length) where.push(sql`e.severity = ANY(${sql.param(filter.severities)}::text[])`);
  if (filter.timeRange) {
    where.push(
      sql`e.event_time BETWEEN ${filter.timeRange.start}::timestamptz AND ${filter.timeRange.end}::timestamptz`,
    );
  }
  if (filter.entityIdentifier) where.push(sql`e.entity_identifier = ${filter.entityIdentifier}`);
  if (filter.ids?.length) where.push(sql`e.id = ANY(${sql.param(filter.ids)}::bigint[])`);
  const named = Boolean(filter.procedureResultIds?.length || filter.ids?.length);
  if (!filter.includeSuperseded && !named) where.push(sql`NOT (${SUPERSEDED_EVENT})`);
  return sql.join(where, sql` AND `);
}

/**
 * An event is superseded when a later run of its procedure processed its day again: a result with a
 * higher id, of the same procedure and TPA choice, for the whole area or a superset of the event's
 * run's entities, that finished the event's chunk (procedure_chunk at its chunk_start). That run
 * recorded the day's events anew, so the event monitor shows the newest word on each day (a day the
 * month-end re-check skipped is not such a day). Events
 * outside a chunk (no run, no chunk) are never superseded. Probes by key: the event's result, the
 * later results of its procedure whose period holds the event's day (procedure_result_period_idx),
 * their chunk at the event's start.
 */
const SUPERSEDED_EVENT = sql`e.chunk_start IS NOT NULL AND EXISTS (
  SELECT 1 FROM procedure_result own
    JOIN procedure_result later
      ON later.tenant = own.tenant AND later.procedure_name = own.procedure_name AND later.id > own.id
     AND later.period_start <= e.chunk_start AND later.period_end > e.chunk_start
     AND coalesce(later.run_options ->> 'tpa', 'false') = coalesce(own.run_options ->> 'tpa', 'false')
     AND (cardinality(later.ref_uuids) = 0
          OR (cardinality(own.ref_uuids) > 0 AND later.ref_uuids @> own.ref_uuids))
    JOIN procedure_chunk lc ON lc.procedure_result_id = later.id AND lc.chunk_start = e.chunk_start
     -- A day the month-end re-check skipped (run option onlyDue, nothing due: no record counted) was
     -- not processed again; its earlier events stand.
     AND (lc.records IS DISTINCT FROM 0 OR NOT coalesce((later.run_options ->> 'onlyDue')::boolean, false))
   WHERE own.id = e.procedure_result_id)`;

/** The filter's events summed by code and severity, most events first (the table above a run's events). */
export async function summariseEvents(
  ex: Executor,
  tenant: string,
  filter: ProcessingEventFilter,
): Promise<ProcessingEventSummaryRow[]> {
  return rows<ProcessingEventSummaryRow>(
    ex,
    sql`SELECT e.error_code AS "errorCode", e.severity, count(*)::int AS events, sum(e.incidents)::int AS incidents
          FROM processing_event e WHERE ${eventClauses(tenant, filter)}
         GROUP BY e.error_code, e.severity
         ORDER BY count(*) DESC, e.error_code, e.severity
         LIMIT ${EVENT_SUMMARY_ROWS}`,
  );
}

export async function findEventPage(
  ex: Executor,
  tenant: string,
  query: { page: number; size: number; sortBy: string; descendingOrder: boolean },
  filter: ProcessingEventFilter,
): Promise<{ total: number; content: ProcessingEvent[] }> {
  const where = eventClauses(tenant, filter);
  const direction = query.descendingOrder ? sql`DESC` : sql`ASC`;
  const [page] = await rows<{ total: number; content: ProcessingEvent[] | null }>(
    ex,
    sql`WITH p AS (SELECT ${EVENT_COLUMNS} FROM processing_event e WHERE ${where}
                    ORDER BY ${EVENT_SORT[query.sortBy] ?? EVENT_SORT.time} ${direction}, e.id ${direction}
                    LIMIT ${query.size} OFFSET ${query.page * query.size})
        SELECT (SELECT count(*) FROM processing_event e WHERE ${where})::int AS total,
               (SELECT json_agg(p) FROM p) AS content`,
  );
  return { total: page?.total ?? 0, content: page?.content ?? [] };
}

export async function countEvents(ex: Executor, tenant: string, filter: ProcessingEventFilter): Promise<number> {
  const [row] = await rows<{ n: number }>(
    ex,
    sql`SELECT count(*)::int AS n FROM processing_event e WHERE ${eventClauses(tenant, filter)}`,
  );
  return row?.n ?? 0;
}

export async function eventResultIds(ex: Executor, tenant: string, filter: ProcessingEventFilter): Promise<number[]> {
  const found = await rows<{ id: number }>(
    ex,
    sql`SELECT DISTINCT e.procedure_result_id::int AS id FROM processing_event e
         WHERE ${eventClauses(tenant, filter)} AND e.procedure_result_id IS NOT NULL ORDER BY 1`,
  );
  return found.map((r) => r.id);
}

/** Distinct error codes of the area's events (of one process, when named). */
export async function eventErrorCodes(ex: Executor, tenant: string, processName?: string): Promise<string[]> {
  const process = processName === undefined ? sql`` : sql`AND process_name = ${processName}`;
  const found = await rows<{ code: string }>(
    ex,
    sql`SELECT DISTINCT error_code AS code FROM processing_event WHERE tenant = ${tenant}::uuid ${process} ORDER BY 1`,
  );
  return found.map((r) => r.code);
}

/** The process names that have events in the area. */
export async function processesWithEvents(ex: Executor, tenant: string): Promise<string[]> {
  const found = await rows<{ name: string }>(
    ex,
    sql`SELECT DISTINCT process_name AS name FROM processing_event WHERE tenant = ${tenant}::uuid`,
  );
  return found.map((r) => r.name);
}

/** The status of the job run executing a result (null when it has none or it is gone). */
export async function jobStatusOf(ex: Executor, jobId: string | null): Promise<string | null> {
  if (!jobId) return null;
  const [row] = await rows<{ status: string }>(ex, sql`SELECT status FROM job_run WHERE id = ${jobId}::uuid`);
  return row?.status ?? null;
}
