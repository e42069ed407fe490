import { uicCheckDigit } from '@railwatt/contracts';
import ExcelJS from 'exceljs';

/**
 * Test and bench fixtures: domain workbooks as a person would make them in a spreadsheet, and the
 * multipart body a browser sends for an upload.
 */
export type FixtureCell = string | number | boolean | Date | null | undefined;

export interface FixtureSheet {
  name: string;
  rows: Record<string, FixtureCell>[];
}

export async function fixtureWorkbook(sheets: readonly FixtureSheet[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    const columns = [...new Set(sheet.rows.flatMap((r) => Object.keys(r)))];
    worksheet.addRow(columns);
    for (const row of sheet.rows) worksheet.addRow(columns.map((c) => row[c] ?? null));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const ORGANISATION_ROWS = [
  {
    name: 'Nordic Rail Keeper',
    validFrom: '1970-01-01T00:00:00Z',
    validTo: '2070-01-01T00:00:00Z',
    orgId: 'NRK',
    organisationTypes: 'VEHICLE_KEEPER;RAILWAY_UNDERTAKING',
    emails: 'ops@nrk.example',
  },
];

export const TYPE_ROWS = [
  { name: 'Vectron', validFrom: '1970-01-01T00:00:00Z', validTo: '2070-01-01T00:00:00Z', maxSpeed: 200, maxPower: 6.4 },
];

/** The i-th test EVN: 11 digits and their UIC check digit, so the contract accepts it (i < 1,000,000). */
export const evnFor = (i: number): string => {
  const serial = `91760${String(i).padStart(6, '0')}`;
  return `${serial}${uicCheckDigit(serial)}`;
};

export function tractionUnitRows(count: number, from = 1): Record<string, FixtureCell>[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      name: `TU ${evnFor(i)}`,
      validFrom: '2024-01-01T00:00:00Z',
      validTo: '2070-01-01T00:00:00Z',
      state: 'ACTIVE',
      evn: evnFor(i),
      description: `Locomotive ${i}`,
      owner: 'Nordic Rail Keeper',
      tractionUnitTypeRef: 'Vectron',
    };
  });
}

/** A multipart/form-data body with the given files under the field name `files`. */
export function multipartBody(files: readonly { fileName: string; bytes: Buffer; contentType?: string }[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----railwatt${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.fileName}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
