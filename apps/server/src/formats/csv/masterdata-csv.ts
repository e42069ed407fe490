import { writeCsvTable, readCsvTable, type CsvTable } from './csv-table.js';

/**
 * masterdata.csv (calls.md §7 "Files"): the fleet master data, one line per traction unit and
 * consumption point, in the columns of the fleet entry (product.md §3).
 */
export const MASTERDATA_COLUMNS = [
  'EVN',
  'VKM',
  'NVR',
  'description',
  'traction unit name',
  'type',
  'responsible',
  'EMS type',
  'EMS id',
  'CPID',
  'valid from',
  'valid to',
  'status',
] as const;

export type MasterdataColumn = (typeof MASTERDATA_COLUMNS)[number];
export type MasterdataRow = Partial<Record<MasterdataColumn, string | null>>;

export function writeMasterdataCsv(rows: readonly MasterdataRow[]): Buffer {
  return writeCsvTable(
    MASTERDATA_COLUMNS,
    rows.map((row) => MASTERDATA_COLUMNS.map((c) => row[c] ?? null)),
  );
}

export function readMasterdataCsv(input: Buffer | string): { rowNumber: number; row: MasterdataRow }[] {
  const table: CsvTable = readCsvTable(input);
  const known = new Set<string>(MASTERDATA_COLUMNS);
  return table.rows.map(({ rowNumber, cells }) => {
    const row: MasterdataRow = {};
    for (const [k, v] of Object.entries(cells)) if (known.has(k)) row[k as MasterdataColumn] = v;
    return { rowNumber, row };
  });
}
