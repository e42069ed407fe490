// cebd-preprocessing (issue 9 item 4) for one day of one area on the real PostgreSQL server
// (BENCH_DATABASE_URL overrides it): the seeded Norwegian fleet and infrastructure (grid areas of
// Natural Earth outlines, up to ~200 vertices), BENCH_CEBD_POINTS consumption points x 288 records
// stored through the intake, then preprocessCebd for the day as railwatt_app. Beside it, the floor:
// one SQL aggregate that reads the same records (cebd_record, their four energies), printed as a
// ratio. Run alone: node --import tsx bench/cebd-preprocessing.ts
import { Readable } from 'node:stream';
import type { Database } from '../apps/server/src/db/client.js';
import { tenantExecutor } from '../apps/server/src/db/tenant.js';
import { cebdFormat } from '../apps/server/src/formats/cebd/cebd-format.js';
import { cebdXmlStream, dayFileOptions } from '../apps/server/src/formats/cebd/generate.js';
import { preprocessCebd } from '../apps/server/src/modules/processing/cebd-preprocessing.js';
import { importParsedStream } from '../apps/server/src/modules/timeseries/intake.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedFleetData } from '../apps/server/src/seed/fleet.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { seedInfrastructureData } from '../apps/server/src/seed/infrastructure.js';
import { serviceContext } from '../apps/server/src/test/context.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';
import { ADMIN_ACTOR } from '../apps/server/src/test/records.js';

const POINTS = Number(process.env.BENCH_CEBD_POINTS ?? 500);
const NORWAY = areaUuid('norway');
const DAY = { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z' };

export async function benchCebdPreprocessing(): Promise<void> {
  console.log('\n## cebd-preprocessing of a day against one aggregate over the same rows');
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const database: Database = await openTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  try {
    await seedDemo(database, { only: ['areas', 'users'] });
    await seedFleetData(database, { unitsPerCountry: Math.ceil(POINTS / 1.2), countries: ['norway'] });
    await seedInfrastructureData(database, ['norway']);
    const cpids = (
      await database.query<{ cpid: string }>(
        `SELECT attributes->>'cpid' AS cpid FROM entity_latest
          WHERE tenant = $1 AND type = 'consumptionpoint' ORDER BY 1 LIMIT ${POINTS}`,
        [NORWAY],
      )
    ).map((r) => r.cpid);
    const ctx = serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, {
      timeZone: 'Europe/Oslo',
      kind: 'norway',
      name: 'Norway',
    });
    const options = dayFileOptions(cpids.length, 1);
    options.points.forEach((p, i) => (p.cpid = cpids[i]!));
    const stored = await importParsedStream(ctx, cebdFormat, Readable.from(cebdXmlStream(options)), {
      dataLogId: null,
    });
    if (stored.status !== 'OK') throw new Error(`intake refused the file: ${stored.text.slice(0, 300)}`);
    // As autovacuum would have it on a server: statistics for the master data and the stored day.
    await database.exec('VACUUM ANALYZE');
    // The floor as the owning user (no policies): the same records, one aggregate.
    let started = performance.now();
    await database.query(
      `SELECT count(*), sum(active_consumed + active_regenerated + reactive_consumed + reactive_regenerated)
         FROM cebd_record WHERE period_end > $1::timestamptz AND period_end <= $2::timestamptz`,
      [DAY.start, DAY.end],
    );
    const floorMs = performance.now() - started;
    await database.useAppRole();
    started = performance.now();
    const result = await preprocessCebd(ctx, DAY);
    const ms = performance.now() - started;
    const perS = (n: number, t: number) => Math.round((n / t) * 1000).toLocaleString('en');
    console.log(
      `${result.records.toLocaleString('en')} records (${cpids.length} points x 288), placed ${result.placed.toLocaleString('en')}, by code ${JSON.stringify(result.byCode)}`,
    );
    console.log(
      `preprocessCebd ${(ms / 1000).toFixed(1)} s (${perS(result.records, ms)} records/s); floor ${(floorMs / 1000).toFixed(1)} s; ratio ${(ms / floorMs).toFixed(1)}x`,
    );
  } finally {
    await database.close();
  }
}

if (process.argv[1]?.endsWith('cebd-preprocessing.ts')) await benchCebdPreprocessing();
