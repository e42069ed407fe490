import { sql, type SQL } from 'drizzle-orm';
import { CEBD_SERIES, MESSAGE_TYPES, type Resolution, type TimeSeriesExportRequest } from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { ParsedPoint } from '../../formats/timeseries/format.js';
import { EXPORTED_TIME_SERIES_FILE, writeTimeSeriesWorkbook } from '../../formats/timeseries-table/table-write.js';
import { recordFile } from '../datalog/datalog-service.js';
import { rows } from '../domain/sql.js';
import { XLSX_CONTENT_TYPE, type ExportedFile } from '../excel/export-service.js';
import { visibleOrganisations, type VisibleOrganisations } from '../organisation/visibility.js';

/** Values one export may hold (a workbook row per period, a column per series). */
export const MAX_EXPORT_VALUES = 1_000_000;

/**
 * A series of an organisation's (its own, its traction unit's or that unit's consumption point's)
 * is that organisation's figure: an actor that sees only some organisations (organisation/
 * visibility.ts) exports only theirs. Series of the area (supply, fixed installations, markets,
 * parameters of train profiles ...) stay.
 */
function ownSeries(entity: SQL, visible: VisibleOrganisations): SQL {
  if (visible === null) return sql`TRUE`;
  const own = sql`${sql.param([...visible])}::text[]`;
  return sql`NOT EXISTS (
    SELECT 1 FROM entity_latest e
      LEFT JOIN entity_latest u ON e.type = 'consumptionpoint' AND u.tenant = e.tenant AND u.type = 'tractionunit'
                               AND u.entity_uuid::text = e.unit_ref
     WHERE e.entity_uuid = ${entity}
       AND CASE e.type WHEN 'organisation' THEN NOT (e.entity_uuid::text = ANY(${own}))
                       WHEN 'tractionunit' THEN NOT (coalesce(e.owner_ref, '') = ANY(${own}))
                       WHEN 'consumptionpoint' THEN NOT (coalesce(u.owner_ref, '') = ANY(${own}))
                       ELSE FALSE END)`;
}

/**
 * Where a type's values are: a CEBD type's in its column of cebd_record (one row per record, its
 * period's start = period_end - 5 minutes), keyed by the series' consumption point; any other type's
 * in time_series_value by series id. Both as (series_id, start_time, value, quality).
 */
const CEBD_COLUMNS: Record<string, string> = {
  [CEBD_SERIES.activeConsumed]: 'active_consumed',
  [CEBD_SERIES.activeRegenerated]: 'active_regenerated',
  [CEBD_SERIES.reactiveConsumed]: 'reactive_consumed',
  [CEBD_SERIES.reactiveRegenerated]: 'reactive_regenerated',
};
function valuesOf(typeName: string, tenant: string, range: { start: string; end: string }): SQL {
  const column = CEBD_COLUMNS[typeName];
  if (!column) {
    return sql`(SELECT series_id, start_time, value, quality FROM time_series_value
                 WHERE tenant = ${tenant}::uuid
                   AND start_time >= ${range.start}::timestamptz AND start_time < ${range.end}::timestamptz)`;
  }
  return sql`(SELECT s.id AS series_id, r.period_end - interval '5 minutes' AS start_time,
                     r.${sql.raw(column)} AS value, r.quality
                FROM time_series s
                JOIN cebd_record r ON r.tenant = s.tenant AND r.consumption_point_uuid = s.entity_uuid
               WHERE s.tenant = ${tenant}::uuid AND s.type_name = ${typeName} AND s.resolution = 'PT5M'
                 -- The periods starting in [start, end): the key's range, not an expression of it.
                 AND r.period_end >= ${range.start}::timestamptz + interval '5 minutes'
                 AND r.period_end < ${range.end}::timestamptz + interval '5 minutes')`;
}

/**
 * POST /excel/timeseries/export (exportedtimeseries.xlsx): the current values of one type in the
 * range, for the chosen entities (every series of the type without `refs`), in the layout the
 * time-series import reads (docs/formats/timeseries-tables.md), so an export imports back
 * unchanged. Series of the type's other resolutions are left out (one sheet per type). The file is
 * a data-log entry.
 */
export async function exportTimeSeries(ctx: ServiceContext, request: TimeSeriesExportRequest): Promise<ExportedFile> {
  const refs = request.refs ?? null;
  const visible = await visibleOrganisations(ctx);
  const stored = valuesOf(request.typeName, ctx.tenant.uuid, request.timeRange);
  const series = await rows<{ id: string | number; identifier: string; resolution: Resolution; n: string | number }>(
    ctx.db,
    sql`SELECT s.id, s.identifier, s.resolution,
               (SELECT count(*) FROM ${stored} v
                 WHERE v.series_id = s.id) AS n
          FROM time_series s
         WHERE s.tenant = ${ctx.tenant.uuid}::uuid AND s.type_name = ${request.typeName}
           AND (${refs === null} OR s.entity_uuid = ANY(${sql.param(refs ?? [])}::uuid[]))
           AND ${ownSeries(sql`s.entity_uuid`, visible)}
         ORDER BY s.identifier`,
  );
  const withValues = series.filter((s) => Number(s.n) > 0);
  if (withValues.length === 0) throw ApiError.badRequest('invalid_input', 'No timeseries to download');
  // The resolution most of the chosen series have.
  const byResolution = new Map<Resolution, number>();
  for (const s of withValues) byResolution.set(s.resolution, (byResolution.get(s.resolution) ?? 0) + 1);
  const resolution = [...byResolution.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const chosen = withValues.filter((s) => s.resolution === resolution);
  const total = chosen.reduce((sum, s) => sum + Number(s.n), 0);
  if (total > MAX_EXPORT_VALUES) {
    throw ApiError.badRequest(
      'query_timeout',
      `The export would hold ${total} values (at most ${MAX_EXPORT_VALUES}): choose a shorter time range or fewer entities`,
    );
  }
  const values = await rows<{ series_id: string | number; start: string; value: string | null; quality: number }>(
    ctx.db,
    sql`SELECT series_id, to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS start, value::text AS value, quality
          FROM ${stored} v
         WHERE series_id = ANY(${sql.param(chosen.map((s) => Number(s.id)))}::bigint[])
         ORDER BY series_id, start_time`,
  );
  const points = new Map<number, ParsedPoint[]>();
  for (const v of values) {
    const list = points.get(Number(v.series_id)) ?? [];
    list.push({
      start: v.start,
      value: v.value === null ? null : Number(v.value),
      quality: Number(v.quality) as ParsedPoint['quality'],
    });
    points.set(Number(v.series_id), list);
  }
  const bytes = await writeTimeSeriesWorkbook([
    {
      typeName: request.typeName,
      timeZone: ctx.tenant.timeZone,
      resolution,
      series: chosen.map((s) => ({ identifier: s.identifier, points: points.get(Number(s.id)) ?? [] })),
    },
  ]);
  await recordFile(ctx.db, {
    tenant: ctx.tenant.uuid,
    username: ctx.actor.username,
    messageType: MESSAGE_TYPES.timeSeriesExport,
    status: 'OK',
    text: `Exported ${total} values of ${chosen.length} time series (${request.typeName})`,
    fileName: EXPORTED_TIME_SERIES_FILE,
    bytes,
    contentType: XLSX_CONTENT_TYPE,
  });
  return { fileName: EXPORTED_TIME_SERIES_FILE, contentType: XLSX_CONTENT_TYPE, bytes };
}
