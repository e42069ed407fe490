// Train runs at national scale (DOMAIN.md: about 7,000 trains a day): read a day's file, store it as
// one input file, correct every run with a second file, and list the day, on a real PostgreSQL
// server under row-level security. `node --import tsx bench/trainrun.ts`; BENCH_DATABASE_URL
// overrides the server, BENCH_TRAIN_RUNS the number of runs (default 7,000).
import { uicCheckDigit } from '@railwatt/contracts';
import { tenantExecutor } from '../apps/server/src/db/tenant.js';
import { readTrainRuns } from '../apps/server/src/formats/trainrun/trainrun-format.js';
import { generateTrainRuns, trainRunsXml } from '../apps/server/src/formats/trainrun/trainrun-generator.js';
import { startFile } from '../apps/server/src/modules/datalog/datalog-service.js';
import { listTrainRuns, storeTrainRuns } from '../apps/server/src/modules/trainrun/service.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { demoTrainRunSpec } from '../apps/server/src/seed/train-runs.js';
import { serviceContext } from '../apps/server/src/test/context.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';

const RUNS = Number(process.env.BENCH_TRAIN_RUNS ?? 7_000);
const DAY = '2026-10-01';

async function* chunked(text: string, size = 64 * 1024): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

export async function benchTrainRuns(): Promise<void> {
  console.log('\n## Train runs');
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const database = await openTestDatabase();
  if (previous === undefined) delete process.env.TEST_DATABASE_URL;
  else process.env.TEST_DATABASE_URL = previous;
  try {
    await seedDemo(database, { only: ['areas', 'users', 'fleet', 'infrastructure', 'administration'] });
    if (!process.env.BENCH_AS_OWNER) await database.useAppRole();
    const tenant = areaUuid('norway');
    const ctx = serviceContext(tenantExecutor(database, tenant), tenant);
    // A locomotive or multiple unit and, for every other run, six hauled vehicles.
    const spec = demoTrainRunSpec('norway', { days: [DAY], runsPerDay: RUNS });
    const wagons = Array.from({ length: 600 }, (_, i) => {
      const eleven = `3376549${String(1000 + i).padStart(4, '0')}`;
      return { evn: `${eleven}${uicCheckDigit(eleven)}`, grossWeight: 60 + (i % 30) };
    });
    const runs = generateTrainRuns({ ...spec, wagons, wagonsPerRun: 6 }).map((r, i) =>
      i % 2 === 0 ? { ...r, composition: r.composition.slice(0, 1) } : r,
    );
    const input = trainRunsXml(runs);
    const correction = trainRunsXml(runs.map((r) => ({ ...r, action: 'correction' as const, grossTonneKm: 1 })));

    const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const result = await work();
      const ms = performance.now() - started;
      console.log(`${label}: ${ms.toFixed(0)} ms (${((RUNS / ms) * 1000).toFixed(0)} runs/s)`);
      return result;
    };
    const read = await timed(`read ${(input.length / 1e6).toFixed(1)} MB, ${RUNS} runs`, () =>
      readTrainRuns(chunked(input), { timeZone: 'Europe/Oslo' }),
    );
    if (read.problems.length) throw new Error(`generated file has problems: ${read.problems[0]!.message}`);
    const store = async (text: string, label: string) => {
      const { runs: parsed } = await readTrainRuns(chunked(text), { timeZone: 'Europe/Oslo' });
      const id = await startFile(ctx.db, {
        tenant,
        username: 'bench',
        messageType: 'TRAIN_RUN_IMPORT',
        fileName: label,
      });
      const result = await timed(`store ${label}`, () =>
        ctx.db.transaction((tx) => storeTrainRuns({ ...ctx, db: tx }, parsed, id)),
      );
      if (result.problems.length) throw new Error(`${label}: ${result.problems[0]!.message}`);
    };
    await store(input, 'input');
    await store(correction, 'correction');
    const listed = await timed('list the day', () =>
      listTrainRuns(ctx, { operatingDayFrom: DAY, operatingDayTo: DAY }),
    );
    console.log(`listed ${listed.length} runs, ${listed.reduce((n, r) => n + r.composition.length, 0)} vehicles`);
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTrainRuns();
