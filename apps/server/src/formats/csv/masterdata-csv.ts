import { writeCsvTable, readCsvTable, type CsvTable } from './csv-table.js';

/**
 * masterdata.csv (calls.md §7 "Files"): the fleet master data, one line per traction unit and
 * consumption point, in the columns of the fleet entry (product.md §3) labelled as the fleet screens
 * label them (locales/en/fleet.json "entry"), dates as dd.MM.yyyy in the area's time zone.
 */
export const MASTERDATA_COLUMNS = [
  'EVN',
  'VKM',
  'NVR',
  'Description',
  'Traction unit name',
  'Type',
  'Responsible',
  'EMS type',
  'EMS id',
  'CPID',
  'Valid from',
  'Valid to',
  'Status',
] as const;

export type MasterdataColumn = (typeof MASTERDATA_COLUMNS)[number];
export type MasterdataRow = Partial<Record<MasterdataColumn, string | null>>;

/** Headers files written before the labels still carry ('traction unit name', 'valid from' ...). */
const columnOf = new Map<string, MasterdataColumn>(MASTERDATA_COLUMNS.map((c) => [c.toLowerCase(), c]));

export function writeMasterdataCsv(rows: readonly MasterdataRow[]): Buffer {
  return writeCsvTable(
    MASTERDATA_COLUMNS,
    rows.map((row) => MASTERDATA_COLUMNS.map((c) => row[c] ?? null)),
  );
}

export function readMasterdataCsv(input: Buffer | string): { rowNumber: number; row: MasterdataRow }[] {
  const table: CsvTable = readCsvTable(input);
  return table.rows.map(({ rowNumber, cells }) => {
    const row: MasterdataRow = {};
    for (const [header, value] of Object.entries(cells)) {
      const column = columnOf.get(header.trim().toLowerCase());
      if (column) row[column] = value;
    }
    return { rowNumber, row };
  });
}
