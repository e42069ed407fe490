import {
  MASTER_DATA_MESSAGE_TYPES,
  type DataLogEntry,
  type DataLogFilter,
  type DataLogSortColumn,
  type MasterDataLogEntry,
  type MasterDataLogQuery,
} from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { boundedText } from '../../db/storable-text.js';
import { rows, type Executor } from '../domain/sql.js';
import { MAX_ENTRY_TEXT } from './datalog-service.js';

/**
 * The data logs' SQL (calls.md §7): one statement per page (the count, the rows and their time
 * series together), every filter a clause, sorting by an allow-list of columns. Runs on the
 * executor it is given; row-level security keeps a tenant's executor inside its area.
 */

/** The sortable columns: the wire names of the contract to SQL columns (nothing else reaches ORDER BY). */
const SORT_COLUMNS: Record<DataLogSortColumn, SQL> = {
  logTimeStamp: sql`d.log_time_stamp`,
  messageType: sql`d.message_type`,
  messageStatus: sql`d.message_status`,
  fileName: sql`d.file_name`,
  username: sql`d.username`,
  destination: sql`d.destination`,
  id: sql`d.id`,
};

const MASTER_SORT_COLUMNS: Record<MasterDataLogQuery['sortBy'], SQL> = {
  logTimeStamp: sql`d.log_time_stamp`,
  fileName: sql`d.file_name`,
  type: sql`d.message_type`,
  status: sql`d.message_status`,
  id: sql`d.id`,
};

const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const textArray = (values: readonly string[]) => sql`${sql.param([...values])}::text[]`;

/** The WHERE clauses of a settlement data-log filter (calls.md §3). */
function filterClauses(filter: DataLogFilter): SQL[] {
  const where: SQL[] = [sql`TRUE`];
  if (filter.processingTimeRange) {
    const { start, end } = filter.processingTimeRange;
    where.push(sql`d.log_time_stamp >= ${start}::timestamptz AND d.log_time_stamp <= ${end}::timestamptz`);
  }
  if (filter.enableObservationTime && filter.observationTimeRange) {
    // A file falls in the observation range when one of its series overlaps it.
    const { start, end } = filter.observationTimeRange;
    where.push(sql`EXISTS (SELECT 1 FROM data_log_time_series ts
                            WHERE ts.data_log_id = d.id
                              AND ts.start_time <= ${end}::timestamptz AND ts.end_time >= ${start}::timestamptz)`);
  }
  if (filter.typeName?.length) where.push(sql`d.message_type = ANY (${textArray(filter.typeName)})`);
  if (filter.status?.length) where.push(sql`d.message_status = ANY (${textArray(filter.status)})`);
  // Consumption points and entity identifiers both name the series a file carried (its CPID or name).
  const identifiers = [...(filter.consumptionPoints ?? []), ...(filter.entityIdentifiers ?? [])];
  if (identifiers.length)
    where.push(sql`EXISTS (SELECT 1 FROM data_log_time_series ts
                            WHERE ts.data_log_id = d.id AND ts.entity_identifier = ANY (${textArray(identifiers)}))`);
  if (filter.fileName)
    where.push(sql`(strpos(lower(d.file_name), lower(${filter.fileName})) > 0
                    OR strpos(lower(d.response_file_name), lower(${filter.fileName})) > 0)`);
  if (filter.baseId) where.push(sql`d.base_id = ${filter.baseId}`);
  if (filter.trainId) where.push(sql`d.train_id = ${filter.trainId}`);
  return where;
}

interface PageRow<T> {
  total: number;
  content: T[] | null;
}

/** One page of a tenant's data log with the total count. */
export async function findDataLogPage(
  ex: Executor,
  tenant: string,
  filter: DataLogFilter,
  visible: SQL,
): Promise<{ total: number; content: DataLogEntry[] }> {
  const where = sql.join([sql`d.tenant = ${tenant}::uuid`, visible, ...filterClauses(filter)], sql` AND `);
  const direction = filter.descendingOrder ? sql`DESC` : sql`ASC`;
  const order = sql`${SORT_COLUMNS[filter.sortBy]} ${direction} NULLS LAST, d.id ${direction}`;
  // The page's rows without their bytes (never read for a list); the count over the same clauses.
  const [row] = await rows<PageRow<DataLogEntry>>(
    ex,
    sql`WITH p AS (SELECT d.id, d.log_time_stamp, d.message_type, d.message_status, d.message_text, d.file_name,
                          d.username, d.destination, d.base_id, d.train_id, d.response_bytes IS NOT NULL AS has_response,
                          d.file_size
                     FROM data_log d WHERE ${where}
                    ORDER BY ${order}
                    LIMIT ${filter.size} OFFSET ${filter.page * filter.size})
        SELECT (SELECT count(*) FROM data_log d WHERE ${where})::int AS total,
               (SELECT json_agg(json_build_object(
                  'id', d.id,
                  'logTimeStamp', ${iso(sql`d.log_time_stamp`)},
                  'messageType', d.message_type,
                  'messageStatus', d.message_status,
                  'messageText', d.message_text,
                  'fileName', d.file_name,
                  'username', d.username,
                  'destination', d.destination,
                  'baseId', d.base_id,
                  'trainId', d.train_id,
                  'hasResponse', d.has_response,
                  -- An ordered or scheduled report's start, end, file size, running time (seconds)
                  -- and the names of its refs (calls.md §3; migration 0410 report_order).
                  'reports', COALESCE((
                    SELECT json_agg(json_build_object(
                             'startTime', ${iso(sql`o.started_at`)},
                             'endTime', ${iso(sql`o.finished_at`)},
                             'fileSize', d.file_size,
                             'runningTime', extract(epoch FROM o.finished_at - o.started_at)::float8,
                             'reportRefsNames', o.refs_names))
                      FROM report_order o WHERE o.data_log_id = d.id), '[]'::json),
                  'messageLogTimeSeries', COALESCE((
                    SELECT json_agg(json_build_object(
                             'startTime', ${iso(sql`ts.start_time`)},
                             'endTime', ${iso(sql`ts.end_time`)},
                             'timeSeriesType', ts.time_series_type,
                             'entityIdentifier', ts.entity_identifier,
                             'valuesCount', ts.values_count,
                             'message', ts.message) ORDER BY ts.start_time, ts.id)
                      FROM data_log_time_series ts WHERE ts.data_log_id = d.id), '[]'::json)
                ) ORDER BY ${order}) FROM p d) AS content`,
  );
  return { total: row?.total ?? 0, content: row?.content ?? [] };
}

/** The message types and statuses present in the area (the filters' options), each with the known ones. */
export async function distinctValues(ex: Executor, tenant: string, column: 'type' | 'status'): Promise<string[]> {
  const col = column === 'type' ? sql`message_type` : sql`message_status`;
  const found = await rows<{ v: string }>(
    ex,
    sql`SELECT DISTINCT ${col} AS v FROM data_log WHERE tenant = ${tenant}::uuid ORDER BY 1`,
  );
  return found.map((r) => r.v);
}

/** What the actions and downloads read of one entry. */
export interface StoredEntry {
  id: number;
  tenant: string;
  messageType: string;
  messageStatus: string;
  messageText: string | null;
  fileName: string | null;
  contentType: string | null;
  responseFileName: string | null;
  responseContentType: string | null;
}

/** One entry of the area, if `visible` (a clause on `d`, the entries the actor may see) admits it. */
export async function findEntry(ex: Executor, tenant: string, id: number, visible: SQL): Promise<StoredEntry | null> {
  const [row] = await rows<StoredEntry>(
    ex,
    sql`SELECT id, tenant, message_type AS "messageType", message_status AS "messageStatus",
               message_text AS "messageText", file_name AS "fileName", content_type AS "contentType",
               response_file_name AS "responseFileName", response_content_type AS "responseContentType"
          FROM data_log d WHERE tenant = ${tenant}::uuid AND id = ${id} AND ${visible}`,
  );
  return row ? { ...row, id: Number(row.id) } : null;
}

/**
 * The stored bytes of an entry's response file (small acknowledgements, kept whole in
 * response_bytes). The entry's own file is read through file-store.ts.
 */
export async function responseBytes(ex: Executor, tenant: string, id: number): Promise<Buffer | null> {
  const [row] = await rows<{ b: Buffer | Uint8Array | null }>(
    ex,
    sql`SELECT response_bytes AS b FROM data_log WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
  return row?.b ? Buffer.from(row.b) : null;
}

export async function updateOutcome(
  ex: Executor,
  tenant: string,
  id: number,
  outcome: { status: string; text: string | null },
): Promise<void> {
  await ex.execute(
    sql`UPDATE data_log SET message_status = ${outcome.status},
                            message_text = ${outcome.text === null ? null : boundedText(outcome.text, MAX_ENTRY_TEXT)}
         WHERE tenant = ${tenant}::uuid AND id = ${id}`,
  );
}

/** The given areas; null: every area (a function held without an area). */
const inAreas = (areas: readonly string[] | null) =>
  areas === null ? sql`TRUE` : sql`d.tenant = ANY (${sql.param([...areas])}::uuid[])`;

const MASTER_TYPES = Object.keys(MASTER_DATA_MESSAGE_TYPES);
/** data_log message type -> transfer type, as SQL (the one mapping is the contract's). */
const transferType = sql.raw(
  `CASE d.message_type ${Object.entries(MASTER_DATA_MESSAGE_TYPES)
    .map(([from, to]) => `WHEN '${from}' THEN '${to}'`)
    .join(' ')} END`,
);
/** calls.md §4: the master-data log's statuses are OK, FAILED and REJECTED. */
const masterStatus = sql`CASE WHEN d.message_status IN ('ERROR', 'FAILED') THEN 'FAILED'
                              WHEN d.message_status IN ('REJECTED', 'PARTLY_REJECTED') THEN 'REJECTED'
                              ELSE d.message_status END`;

/**
 * One page of master-data transfers in the given areas. The caller passes the all-areas executor and
 * the areas the administrator holds: master-data mode spans the areas, not one of them.
 */
export async function findMasterDataPage(
  ex: Executor,
  areas: readonly string[] | null,
  query: MasterDataLogQuery,
): Promise<{ total: number; content: MasterDataLogEntry[] }> {
  const where: SQL[] = [inAreas(areas), sql`d.message_type = ANY (${textArray(MASTER_TYPES)})`];
  if (query.typeName?.length) where.push(sql`(${transferType}) = ANY (${textArray(query.typeName)})`);
  if (query.status?.length) where.push(sql`(${masterStatus}) = ANY (${textArray(query.status)})`);
  if (query.fileName) where.push(sql`strpos(lower(d.file_name), lower(${query.fileName})) > 0`);
  const direction = query.descendingOrder ? sql`DESC` : sql`ASC`;
  const order = sql`${MASTER_SORT_COLUMNS[query.sortBy]} ${direction} NULLS LAST, d.id ${direction}`;
  const filtered = sql.join(where, sql` AND `);
  const [row] = await rows<PageRow<MasterDataLogEntry>>(
    ex,
    sql`WITH p AS (SELECT d.id, d.file_name, d.response_file_name, d.message_type, d.message_status, d.message_text,
                          d.mode, d.log_time_stamp, d.username, a.name AS area_name
                     FROM data_log d LEFT JOIN settlement_area a ON a.uuid = d.tenant
                    WHERE ${filtered}
                    ORDER BY ${order}
                    LIMIT ${query.size} OFFSET ${query.page * query.size})
        SELECT (SELECT count(*) FROM data_log d WHERE ${filtered})::int AS total,
               (SELECT json_agg(json_build_object(
                  'id', d.id,
                  'fileName', d.file_name,
                  'fileNameResponse', d.response_file_name,
                  'type', ${transferType},
                  'status', ${masterStatus},
                  'mode', d.mode,
                  'messageType', d.message_type,
                  'messageText', d.message_text,
                  'logTimeStamp', ${iso(sql`d.log_time_stamp`)},
                  'username', d.username,
                  'areaName', COALESCE(d.area_name, '')
                ) ORDER BY ${order}) FROM p d) AS content`,
  );
  return { total: row?.total ?? 0, content: row?.content ?? [] };
}

/**
 * One master-data transfer in the given areas (all-areas executor): its area, name and type, and
 * with `response` the response file's bytes (the transfer's own file is read through file-store.ts).
 */
export async function findMasterDataFile(
  ex: Executor,
  areas: readonly string[] | null,
  id: number,
  response: boolean,
): Promise<{
  tenant: string;
  messageType: string;
  fileName: string | null;
  contentType: string | null;
  responseBytes: Buffer | null;
} | null> {
  const [row] = await rows<{
    tenant: string;
    messageType: string;
    fileName: string | null;
    contentType: string | null;
    responseBytes: Buffer | Uint8Array | null;
  }>(
    ex,
    response
      ? sql`SELECT tenant, message_type AS "messageType", response_file_name AS "fileName",
                   response_content_type AS "contentType", response_bytes AS "responseBytes"
              FROM data_log d WHERE d.id = ${id} AND ${inAreas(areas)}
               AND d.message_type = ANY (${textArray(MASTER_TYPES)})`
      : sql`SELECT tenant, message_type AS "messageType", file_name AS "fileName",
                   content_type AS "contentType", NULL::bytea AS "responseBytes"
              FROM data_log d WHERE d.id = ${id} AND ${inAreas(areas)}
               AND d.message_type = ANY (${textArray(MASTER_TYPES)})`,
  );
  if (!row) return null;
  return { ...row, responseBytes: row.responseBytes ? Buffer.from(row.responseBytes) : null };
}
