import { EXPORT_FILE_NAMES, type InterfaceExportRequest, type InterfaceRoute } from '@railwatt/contracts';
import { formatAreaInstant } from '../../formats/area-date.js';
import { writeTableWorkbook, type CellValue } from '../../formats/xlsx/table-workbook.js';
import { MESSAGE_TYPES, recordFile } from '../datalog/datalog-service.js';
import { XLSX_CONTENT_TYPE, type ExportedFile } from '../excel/export-service.js';
import { routesForExport, type InterfaceContext } from './service.js';

/**
 * InterfaceConfigurations.xlsx (calls.md §7 "Files"): one row per route with readable headers, the
 * kind of credentials set and never the credentials. Like every file that leaves, a data-log entry.
 */
export const INTERFACE_EXPORT_COLUMNS: readonly {
  label: string;
  value: (r: InterfaceRoute, zone: string) => CellValue;
}[] = [
  { label: 'Route id', value: (r) => r.routeId },
  { label: 'Description', value: (r) => r.description },
  { label: 'Interface type', value: (r) => r.interfaceType },
  { label: 'Direction', value: (r) => r.direction },
  { label: 'Server type', value: (r) => r.serverType },
  { label: 'Hostname', value: (r) => r.hostname },
  { label: 'Port', value: (r) => r.port },
  { label: 'Username', value: (r) => r.username },
  { label: 'Path', value: (r) => r.path },
  { label: 'Backup path', value: (r) => r.backupPath },
  { label: 'Folder', value: (r) => r.folder },
  { label: 'Sub folders', value: (r) => r.subFolders.join(', ') },
  { label: 'Enabled', value: (r) => r.enabled },
  { label: 'Credentials', value: (r) => (r.credentialsKind === 'password' ? 'Password' : 'Private key') },
  { label: 'Host key', value: (r) => r.hostKeyFingerprint },
  { label: 'Change comment', value: (r) => r.changeComment },
  { label: 'Changed by', value: (r) => r.updatedBy },
  { label: 'Changed', value: (r, zone) => formatAreaInstant(r.updatedAt, zone) },
];

export async function exportInterfaceConfigurations(
  ctx: InterfaceContext & { tenant: string; timeZone: string },
  request: InterfaceExportRequest,
): Promise<ExportedFile> {
  const routes = await routesForExport(ctx, request);
  const bytes = await writeTableWorkbook([
    {
      name: 'Interface configurations',
      columns: INTERFACE_EXPORT_COLUMNS.map((c) => c.label),
      rows: routes.map((r) => INTERFACE_EXPORT_COLUMNS.map((c) => c.value(r, ctx.timeZone))),
    },
  ]);
  const file = { fileName: EXPORT_FILE_NAMES.interfaceConfigurations, contentType: XLSX_CONTENT_TYPE, bytes };
  await recordFile(ctx.db, {
    tenant: ctx.tenant,
    username: ctx.username,
    messageType: MESSAGE_TYPES.interfaceConfigurationExport,
    status: 'OK',
    text: `${routes.length} interface routes exported`,
    fileName: file.fileName,
    bytes,
    contentType: file.contentType,
  });
  return file;
}
