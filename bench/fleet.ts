// Fleet overview at 10,000 traction units on a real PostgreSQL server (issue 3 point 9).
// `node --import tsx bench/fleet.ts`; BENCH_DATABASE_URL overrides the server (a throwaway database is
// created on it and dropped afterwards). Goal: fleet page p95 < 50 ms (server time through app.inject).
import { buildApp } from '../apps/server/src/app.js';
import { testConfig } from '../apps/server/src/config.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedFleetData } from '../apps/server/src/seed/fleet.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';

const UNITS = 10_000;
const REQUESTS = 200;
const GOAL_P95_MS = 50;

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function benchFleet(): Promise<void> {
  console.log('\n## Fleet overview');
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const database = await openTestDatabase();
  if (previous === undefined) delete process.env.TEST_DATABASE_URL;
  else process.env.TEST_DATABASE_URL = previous;
  try {
    await seedDemo(database, { only: ['areas', 'users'] });
    const loadStarted = performance.now();
    await seedFleetData(database, { unitsPerCountry: UNITS, countries: ['norway'] });
    // A settled database: statistics and the visibility map as autovacuum would leave them.
    await database.exec('VACUUM ANALYZE');
    const loadMs = performance.now() - loadStarted;
    const [counts] = await database.query<{ units: number; points: number; segments: number }>(
      `SELECT count(DISTINCT entity_uuid) FILTER (WHERE type = 'tractionunit')::int AS units,
              count(DISTINCT entity_uuid) FILTER (WHERE type = 'consumptionpoint')::int AS points,
              count(*)::int AS segments FROM entity_segment`,
    );
    console.log(
      `loaded ${counts!.units} traction units, ${counts!.points} consumption points, ${counts!.segments} segments on ${database.kind} in ${loadMs.toFixed(0)} ms`,
    );

    // As the server runs: railwatt_app under row-level security (BENCH_AS_OWNER=1 measures without it).
    if (!process.env.BENCH_AS_OWNER) await database.useAppRole();
    const app = await buildApp({ config: testConfig(), database, logger: false });
    await app.ready();
    try {
      const token = await app.identity!.mintAccessToken('erex-administrator');
      const keeperToken = await app.identity!.mintAccessToken('vehicle-keeper');
      const tenant = areaUuid('norway');
      // What users do on /fleet/overview: first page, paging, sorting by a column, filtering, own data.
      const scenarios: { name: string; query: string; body: Record<string, unknown>; token: string }[] = [
        { name: 'first page', query: 'page=0&size=10', body: {}, token },
        { name: 'deep page', query: 'page=731&size=10', body: {}, token },
        {
          name: 'sort by responsible desc',
          query: 'page=3&size=50',
          body: { sortBy: 'responsible', descendingOrder: true },
          token,
        },
        { name: 'sort by VKM', query: 'page=0&size=10', body: { sortBy: 'vkm' }, token },
        { name: 'filter EVN contains', query: 'page=0&size=10', body: { evn: '7600' }, token },
        { name: 'filter EMS id', query: 'page=0&size=100', body: { emsId: 'EMS2' }, token },
        {
          name: 'own data (vehicle keeper)',
          query: 'page=0&size=10',
          body: { searchMode: 'OWN_READ_WRITE' },
          token: keeperToken,
        },
      ];
      const send = (s: (typeof scenarios)[number]) =>
        app.inject({
          method: 'POST',
          url: `/api/domain/fleet?${s.query}`,
          payload: s.body,
          headers: { authorization: `Bearer ${s.token}`, 'current-tenant-id': tenant },
        });
      for (const s of scenarios) {
        const warm = await send(s);
        if (warm.statusCode !== 200) throw new Error(`${s.name}: ${warm.statusCode} ${warm.body}`);
      }
      const all: number[] = [];
      const byScenario = new Map<string, number[]>();
      for (let i = 0; i < REQUESTS; i++) {
        const s = scenarios[i % scenarios.length]!;
        const started = performance.now();
        const response = await send(s);
        const ms = performance.now() - started;
        if (response.statusCode !== 200) throw new Error(`${s.name}: ${response.statusCode}`);
        all.push(ms);
        byScenario.set(s.name, [...(byScenario.get(s.name) ?? []), ms]);
      }
      for (const [name, list] of byScenario) {
        const sorted = [...list].sort((a, b) => a - b);
        console.log(
          `  ${name.padEnd(28)} p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`,
        );
      }
      const sorted = [...all].sort((a, b) => a - b);
      const p95 = percentile(sorted, 95);
      console.log(
        `fleet overview (${process.env.BENCH_AS_OWNER ? 'owner, no RLS' : 'railwatt_app, RLS'}), ${REQUESTS} requests at ${counts!.units} units: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms; goal p95 < ${GOAL_P95_MS} ms ${p95 < GOAL_P95_MS ? '(met)' : '(NOT met)'}`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchFleet();
