// Time-series file parsing (issue 8 item 3): values per second the xlsx, csv and Nordpool parsers
// read from generated files (no database): a month of quarter hours for 20 supply metering points,
// and a year of Nordpool prices for five price areas. Prints values/s per format.
import { nordpoolFormat } from '../apps/server/src/formats/nordpool/nordpool-format.js';
import { generateNordpoolCsv } from '../apps/server/src/formats/nordpool/nordpool-generate.js';
import { timeSeriesCsvFormat } from '../apps/server/src/formats/timeseries-table/csv-format.js';
import {
  generateTimeSeriesCsv,
  generateTimeSeriesWorkbook,
} from '../apps/server/src/formats/timeseries-table/table-generate.js';
import { timeSeriesXlsxFormat } from '../apps/server/src/formats/timeseries-table/xlsx-format.js';
import type { IntakeFormat } from '../apps/server/src/formats/timeseries/format.js';

async function measure(label: string, format: IntakeFormat, file: Buffer): Promise<void> {
  const started = performance.now();
  let values = 0;
  let problems = 0;
  async function* bytes() {
    yield file;
  }
  for await (const item of format.parse(bytes(), { timeZone: 'Europe/Oslo' })) {
    if (item.kind === 'series') values += item.series.points.length;
    else if (item.kind === 'problem') problems++;
  }
  const seconds = (performance.now() - started) / 1000;
  const kb = (file.length / 1000).toFixed(0);
  console.log(
    `${label}: ${values} values in ${seconds.toFixed(2)} s, ${Math.round(values / seconds)} values/s (${kb} kB, ${problems} problems)`,
  );
}

export async function benchTimeSeriesTables(): Promise<void> {
  console.log('\n## Time-series files');
  const table = {
    typeName: 'supply_energy' as const,
    identifiers: Array.from({ length: 20 }, (_, i) => `Substation ${i + 1}`),
    fromDay: '2024-10-01',
    days: 31,
    resolution: 'PT15M' as const,
  };
  await measure('csv, 20 series x 2,980 quarter hours', timeSeriesCsvFormat, generateTimeSeriesCsv(table));
  await measure('xlsx, 20 series x 2,980 quarter hours', timeSeriesXlsxFormat, await generateTimeSeriesWorkbook(table));
  await measure(
    'Nordpool, 5 areas x 8,784 hours',
    nordpoolFormat,
    generateNordpoolCsv({ fromDay: '2024-01-01', days: 366 }),
  );
}
