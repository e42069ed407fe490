import { DEFAULT_TIME_RANGE, MESSAGES, toEntityKind, type EntityKind } from '@railwatt/contracts';
import type { Database } from '../../db/client.js';
import { ApiError } from '../../errors.js';
import { writeMasterdataCsv, type MasterdataRow } from '../../formats/csv/masterdata-csv.js';
import { writeTableWorkbook } from '../../formats/xlsx/table-workbook.js';
import { MESSAGE_TYPES, recordFile } from '../datalog/datalog-service.js';
import { latestSegments, listSegments, loadCurrent, type SegmentRow } from '../domain/repository.js';
import { overlaps } from '../domain/segments.js';
import type { Executor } from '../domain/sql.js';
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

export interface ExportContext {
  tenant: string;
  username: string;
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
  database: Database,
  ctx: ExportContext,
  messageType: string,
  file: ExportedFile,
  text: string,
): Promise<ExportedFile> {
  await recordFile(database, {
    tenant: ctx.tenant,
    username: ctx.username,
    messageType,
    status: 'OK',
    text,
    fileName: file.fileName,
    bytes: file.bytes,
    contentType: file.contentType,
  });
  return file;
}

export async function exportDomainEntities(
  database: Database,
  ctx: ExportContext,
  selection: ExportSelection,
): Promise<ExportedFile> {
  const segments = await selectedSegments(database.db, ctx.tenant, selection);
  // Selected, but nothing in the window (calls.md §8 "Other").
  if (segments.length === 0) throw new ApiError(400, 'No entities to download');
  const names = await referenceNames(database.db, ctx.tenant, segments);
  const byKind = new Map<EntityKind, ExportSegment[]>();
  for (const s of segments) {
    const kind = toEntityKind(s.type);
    if (!kind) continue;
    byKind.set(kind, [...(byKind.get(kind) ?? []), withNames(kind, s, names)]);
  }
  const bytes = await writeTableWorkbook([...byKind].map(([kind, rows]) => domainSheet(kind, rows)));
  return recordExport(
    database,
    ctx,
    MESSAGE_TYPES.excelDomainExport,
    { fileName: 'exportedentities.xlsx', contentType: XLSX_CONTENT_TYPE, bytes },
    `${segments.length} segments of ${byKind.size} entity types exported`,
  );
}

/**
 * The fleet master data: one line per traction unit and consumption point (a unit without one gets
 * a line of its own), from the latest segment of each, ordered by EVN.
 */
export async function exportMasterdata(
  database: Database,
  ctx: ExportContext,
  selection: { uuids?: readonly string[] | undefined },
): Promise<ExportedFile> {
  const ex = database.db;
  const window = { ...DEFAULT_TIME_RANGE };
  const latestOf = (segments: SegmentRow[]) => {
    const out = new Map<string, SegmentRow>();
    for (const s of segments) {
      const prev = out.get(s.entityUuid);
      if (!prev || Date.parse(s.end) > Date.parse(prev.end)) out.set(s.entityUuid, s);
    }
    return out;
  };
  let units = latestOf(await listSegments(ex, ctx.tenant, ['tractionunit'], { window, includeInactive: true }));
  if (selection.uuids && selection.uuids.length > 0) {
    const wanted = new Set(selection.uuids);
    units = new Map([...units].filter(([uuid]) => wanted.has(uuid)));
  }
  const points = latestOf(await listSegments(ex, ctx.tenant, ['consumptionpoint'], { window, includeInactive: true }));
  const pointsByUnit = new Map<string, SegmentRow[]>();
  for (const p of points.values()) {
    const unit = p.attributes.tractionUnitRef as string | undefined;
    if (unit) pointsByUnit.set(unit, [...(pointsByUnit.get(unit) ?? []), p]);
  }
  const refs = new Set<string>();
  for (const u of units.values()) {
    if (u.attributes.owner) refs.add(String(u.attributes.owner));
    if (u.attributes.tractionUnitTypeRef) refs.add(String(u.attributes.tractionUnitTypeRef));
  }
  const names = new Map((await latestSegments(ex, ctx.tenant, [...refs])).map((s) => [s.entityUuid, s.name]));
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const rows: MasterdataRow[] = [];
  const sorted = [...units.values()].sort((a, b) =>
    String(a.attributes.evn ?? '').localeCompare(String(b.attributes.evn ?? '')),
  );
  for (const u of sorted) {
    const base: MasterdataRow = {
      EVN: text(u.attributes.evn),
      description: text(u.attributes.description),
      'traction unit name': u.name,
      type: names.get(String(u.attributes.tractionUnitTypeRef)) ?? null,
      responsible: names.get(String(u.attributes.owner)) ?? null,
      'valid from': u.start,
      'valid to': u.end,
      status: u.state,
    };
    const cps = (pointsByUnit.get(u.entityUuid) ?? []).sort((a, b) => a.name.localeCompare(b.name));
    if (cps.length === 0) rows.push(base);
    for (const cp of cps) {
      rows.push({
        ...base,
        VKM: text(cp.attributes.vkm),
        NVR: text(cp.attributes.nvr),
        'EMS type': text(cp.attributes.emsType),
        'EMS id': text(cp.attributes.emsId),
        CPID: text(cp.attributes.cpid),
      });
    }
  }
  return recordExport(
    database,
    ctx,
    MESSAGE_TYPES.masterdataExport,
    { fileName: 'masterdata.csv', contentType: CSV_CONTENT_TYPE, bytes: writeMasterdataCsv(rows) },
    `${units.size} traction units exported`,
  );
}
