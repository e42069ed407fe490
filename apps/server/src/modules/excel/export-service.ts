import {
  DEFAULT_TIME_RANGE,
  EXPORT_FILE_NAMES,
  MESSAGES,
  PAGE_SIZES,
  toEntityKind,
  type EntityKind,
  type MasterdataExportRequest,
} from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { formatAreaInstant } from '../../formats/area-date.js';
import { writeMasterdataCsv, type MasterdataRow } from '../../formats/csv/masterdata-csv.js';
import { writeTableWorkbook } from '../../formats/xlsx/table-workbook.js';
import { MESSAGE_TYPES, recordFile } from '../datalog/datalog-service.js';
import { latestSegments, listSegments, loadCurrent, type SegmentRow } from '../domain/repository.js';
import { overlaps } from '../domain/segments.js';
import type { Executor } from '../domain/sql.js';
import { listFleetForExport } from '../fleet/service.js';
import { domainSheet, type ExportSegment } from './domain-workbook.js';
import { sheetLayout } from './entity-columns.js';

/**
 * POST /excel/domain/export (exportedentities.xlsx) and /excel/masterdata/export (masterdata.csv).
 * The workbook has the layout the import reads, so exporting and importing the same file changes
 * nothing. Every export is a data-log entry with the bytes sent.
 */
export interface ExportSelection {
  type?: string | undefined;
  uuids?: readonly string[] | undefined;
  timeRange?: { start: string; end: string } | undefined;
}

export interface ExportedFile {
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** Current segments of the selected entities, grouped by kind (in the order kinds are first met). */
async function selectedSegments(ex: Executor, tenant: string, selection: ExportSelection): Promise<SegmentRow[]> {
  const window = selection.timeRange ?? { ...DEFAULT_TIME_RANGE };
  const kind = selection.type ? toEntityKind(selection.type) : undefined;
  if (selection.type && !kind) throw ApiError.badRequest('invalid_input', `Unknown entity type: ${selection.type}`);
  if (selection.uuids && selection.uuids.length > 0) {
    const current = await loadCurrent(ex, tenant, selection.uuids);
    return [...current.values()]
      .filter((e) => !kind || e.type === kind)
      .flatMap((e) => e.segments.map((s) => ({ ...s, type: e.type })))
      .filter((s) => overlaps(s, window));
  }
  if (!kind) throw new ApiError(400, MESSAGES.noEntitiesSelected);
  const segments = await listSegments(ex, tenant, [kind], { window, includeInactive: true });
  return segments.filter((s) => overlaps(s, window));
}

/** uuid -> name of the latest segment, for every entity the given segments refer to. */
async function referenceNames(
  ex: Executor,
  tenant: string,
  segments: readonly SegmentRow[],
): Promise<Map<string, string>> {
  const uuids = new Set<string>();
  for (const s of segments) {
    const kind = toEntityKind(s.type);
    if (!kind) continue;
    for (const spec of sheetLayout(kind).attributes) {
      if (spec.kind !== 'ref' && spec.kind !== 'refList') continue;
      const value = s.attributes[spec.field];
      for (const v of Array.isArray(value) ? value : value ? [value] : []) uuids.add(String(v));
    }
  }
  const latest = await latestSegments(ex, tenant, [...uuids]);
  return new Map(latest.map((s) => [s.entityUuid, s.name]));
}

function withNames(kind: EntityKind, segment: SegmentRow, names: Map<string, string>): ExportSegment {
  const attributes: Record<string, unknown> = { ...segment.attributes };
  for (const spec of sheetLayout(kind).attributes) {
    if (spec.kind !== 'ref' && spec.kind !== 'refList') continue;
    const value = attributes[spec.field];
    // A reference to an entity that no longer exists keeps its uuid, which the import rejects loudly.
    const name = (uuid: unknown) => names.get(String(uuid)) ?? String(uuid);
    if (Array.isArray(value)) attributes[spec.field] = value.map(name);
    else if (value) attributes[spec.field] = name(value);
  }
  return {
    uuid: segment.entityUuid,
    name: segment.name,
    validFrom: segment.start,
    validTo: segment.end,
    state: segment.state,
    active: segment.active,
    comments: segment.comments,
    attributes,
  };
}

/** Every export is a data-log entry (status OK) with the bytes sent; answers the file itself. */
async function recordExport(
  ctx: ServiceContext,
  messageType: string,
  file: ExportedFile,
  text: string,
): Promise<ExportedFile> {
  await recordFile(ctx.db, {
    tenant: ctx.tenant.uuid,
    username: ctx.actor.username,
    messageType,
    status: 'OK',
    text,
    fileName: file.fileName,
    bytes: file.bytes,
    contentType: file.contentType,
  });
  return file;
}

/** The file name and data-log type of a domain-layout workbook export. */
interface WorkbookExport {
  fileName: string;
  messageType: string;
}

const ENTITIES_EXPORT: WorkbookExport = {
  fileName: EXPORT_FILE_NAMES.entities,
  messageType: MESSAGE_TYPES.excelDomainExport,
};

export async function exportDomainEntities(
  ctx: ServiceContext,
  selection: ExportSelection,
  target: WorkbookExport = ENTITIES_EXPORT,
): Promise<ExportedFile> {
  const segments = await selectedSegments(ctx.db, ctx.tenant.uuid, selection);
  // Selected, but nothing in the window (calls.md §8 "Other").
  if (segments.length === 0) throw new ApiError(400, 'No entities to download');
  const names = await referenceNames(ctx.db, ctx.tenant.uuid, segments);
  const byKind = new Map<EntityKind, ExportSegment[]>();
  for (const s of segments) {
    const kind = toEntityKind(s.type);
    if (!kind) continue;
    const list = byKind.get(kind);
    if (list) list.push(withNames(kind, s, names));
    else byKind.set(kind, [withNames(kind, s, names)]);
  }
  const bytes = await writeTableWorkbook(
    [...byKind].map(([kind, rows]) => domainSheet(kind, rows, { timeZone: ctx.tenant.timeZone })),
  );
  return recordExport(
    ctx,
    target.messageType,
    { fileName: target.fileName, contentType: XLSX_CONTENT_TYPE, bytes },
    `${segments.length} segments of ${byKind.size} entity types exported`,
  );
}

/**
 * POST /excel/domain/export-org: the selected organisations as exportedorganisations.xlsx, in the
 * layout POST /excel/domain/import-org reads. Nothing selected: 'No entities selected' (calls.md §5).
 */
export async function exportOrganisations(
  ctx: ServiceContext,
  selection: { uuids: readonly string[]; timeRange?: { start: string; end: string } | undefined },
): Promise<ExportedFile> {
  if (selection.uuids.length === 0) throw new ApiError(400, MESSAGES.noEntitiesSelected);
  return exportDomainEntities(
    ctx,
    { type: 'organisation', uuids: selection.uuids, timeRange: selection.timeRange },
    { fileName: EXPORT_FILE_NAMES.organisations, messageType: MESSAGE_TYPES.excelOrganisationExport },
  );
}

/**
 * The fleet master data: one line per traction unit and consumption point (a unit without one gets
 * a line of its own). The units are the fleet overview's rows for the request's filter (the
 * fleet module's query, every page in the overview's order, at most PAGE_SIZES.exportFetch),
 * narrowed to `uuids` when rows are selected.
 */
export async function exportMasterdata(ctx: ServiceContext, request: MasterdataExportRequest): Promise<ExportedFile> {
  const { uuids, ...filter } = request;
  const units = await listFleetForExport(ctx, filter, {
    uuids: uuids && uuids.length > 0 ? uuids : undefined,
    limit: PAGE_SIZES.exportFetch,
  });
  const rows: MasterdataRow[] = [];
  for (const u of units) {
    const date = (iso: string | null) => (iso ? formatAreaInstant(iso, ctx.tenant.timeZone) : iso);
    const base: MasterdataRow = {
      EVN: u.evn,
      Description: u.description,
      'Traction unit name': u.tractionUnitName,
      Type: u.type,
      Responsible: u.responsible,
      'Valid from': date(u.validFrom),
      'Valid to': date(u.validTo),
      Status: u.status,
    };
    if (u.consumptionPoints.length === 0) rows.push(base);
    for (const cp of u.consumptionPoints) {
      rows.push({ ...base, VKM: cp.vkm, NVR: cp.nvr, 'EMS type': cp.emsType, 'EMS id': cp.emsId, CPID: cp.cpid });
    }
  }
  return recordExport(
    ctx,
    MESSAGE_TYPES.masterdataExport,
    { fileName: 'masterdata.csv', contentType: CSV_CONTENT_TYPE, bytes: writeMasterdataCsv(rows) },
    `${units.length} traction units exported`,
  );
}
