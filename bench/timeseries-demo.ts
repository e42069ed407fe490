// The time-series demo at a larger scale (issue 8 item 9): the generator the demo seeder uses
// (apps/server/src/seed/timeseries-demo.ts) with BENCH_DEMO_UNITS traction units (default 200) of a
// fleet that size in Norway, BENCH_DEMO_DAYS days of October 2026 (default 1), imported file by file
// through the data log and the intake exactly as the seeder does (seedTimeSeriesData), under
// row-level security, on a real PostgreSQL server (BENCH_DATABASE_URL, default the local one) or
// with BENCH_PGLITE=1 on PGlite. Prints the files, the values stored and values/s.
// `node --import tsx bench/timeseries-demo.ts`.
import type { Database } from '../apps/server/src/db/client.js';
import { allAreasDatabase } from '../apps/server/src/db/tenant.js';
import { seedAdministrationData } from '../apps/server/src/seed/administration.js';
import { seedFleetData } from '../apps/server/src/seed/fleet.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { seedInfrastructureData } from '../apps/server/src/seed/infrastructure.js';
import { demoIntakeFiles } from '../apps/server/src/seed/timeseries-demo.js';
import { seedTimeSeriesData } from '../apps/server/src/seed/timeseries.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';

const UNITS = Number(process.env.BENCH_DEMO_UNITS ?? 200);
const DAYS = Number(process.env.BENCH_DEMO_DAYS ?? 1);

async function open(): Promise<Database> {
  if (process.env.BENCH_PGLITE) return openTestDatabase();
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  try {
    return await openTestDatabase();
  } finally {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  }
}

export async function benchTimeSeriesDemo(): Promise<void> {
  console.log(
    `\n## Time-series demo at scale (${UNITS} units, ${DAYS} day(s), ${process.env.BENCH_PGLITE ? 'PGlite' : 'PostgreSQL'})`,
  );
  const generated = performance.now();
  let bytes = 0;
  let files = 0;
  for (const file of demoIntakeFiles({ country: 'norway', units: UNITS, fleetSize: UNITS, days: DAYS })) {
    bytes += file.bytes.length;
    files += 1;
  }
  console.log(
    `generate: ${files} files, ${(bytes / 1e6).toFixed(1)} MB in ${(performance.now() - generated).toFixed(0)} ms`,
  );
  const database = await open();
  try {
    await seedDemo(database, { only: ['areas', 'users'] });
    await seedFleetData(database, { unitsPerCountry: UNITS, countries: ['norway'] });
    await seedInfrastructureData(database, ['norway']);
    await seedAdministrationData(database, ['norway']);
    if (!process.env.BENCH_AS_OWNER) await database.useAppRole();
    const started = performance.now();
    const [result] = await seedTimeSeriesData(database, {
      countries: ['norway'],
      units: UNITS,
      fleetSize: UNITS,
      days: DAYS,
    });
    const ms = performance.now() - started;
    const [stored] = await allAreasDatabase(database).query<{ n: number }>(
      // A CEBD record (one cebd_record row) holds four values.
      `SELECT ((SELECT count(*) FROM time_series_value) + 4 * (SELECT count(*) FROM cebd_record))::int AS n`,
    );
    const values = stored?.n ?? 0;
    console.log(
      `import: ${result?.imported ?? 0} files (refused on purpose: ${result?.rejected.length ?? 0}), ${values} values in ` +
        `${(ms / 1000).toFixed(1)} s = ${Math.round((values / ms) * 1000)} values/s`,
    );
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTimeSeriesDemo();
