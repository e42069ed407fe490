// A 50,000-row import must not stop the server (issue 6 item 1): while one user uploads a 50k-row
// traction-unit workbook over HTTP, another keeps calling /health and the fleet overview. Prints the
// import's rows/s and the p50/p95/max latency of those calls during the import. Goal: p95 < 300 ms.
// The server listens on a real port (fetch, not app.inject) against a throwaway PostgreSQL database.
import {
  fixtureWorkbook,
  multipartBody,
  ORGANISATION_ROWS,
  tractionUnitRows,
  TYPE_ROWS,
} from '../apps/server/src/modules/excel/fixtures.js';
import { createTestApp } from '../apps/server/src/test/app.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 50_000);
const GOAL_P95_MS = 300;
const PROBE_EVERY_MS = 50;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function benchExcelImportConcurrency(): Promise<void> {
  console.log('\n## Excel import: other requests during a large import');
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = SERVER_URL;
  const t = await createTestApp({ config: { excelImportMaxFileBytes: 100 * 1024 * 1024 } }).finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  try {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const headers = await t.headersFor('erex-administrator');
    const upload = async (fileName: string, bytes: Buffer) => {
      const body = multipartBody([{ fileName, bytes }]);
      const res = await fetch(`${base}/api/excel/domain/import`, {
        method: 'POST',
        headers: { ...headers, ...body.headers },
        body: body.payload,
      });
      const answer = (await res.json()) as { success?: boolean };
      if (res.status !== 200 || !answer.success)
        throw new Error(`import failed: ${res.status} ${JSON.stringify(answer).slice(0, 500)}`);
    };
    const probes: Record<string, () => Promise<Response>> = {
      '/health': () => fetch(`${base}/health`),
      'POST /api/domain/fleet': () =>
        fetch(`${base}/api/domain/fleet?page=0&size=50`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{}',
        }),
    };

    await upload(
      'master.xlsx',
      await fixtureWorkbook([
        { name: 'Organisation', rows: ORGANISATION_ROWS },
        { name: 'TractionUnitType', rows: TYPE_ROWS },
      ]),
    );
    // Warm-up: starts the worker thread and the connection pool, fills the fleet with a few units.
    await upload(
      'warmup.xlsx',
      await fixtureWorkbook([{ name: 'TractionUnit', rows: tractionUnitRows(200, 900_000) }]),
    );
    for (const probe of Object.values(probes)) await (await probe()).arrayBuffer();

    const workbook = await fixtureWorkbook([{ name: 'TractionUnit', rows: tractionUnitRows(ROWS, 1) }]);
    const latencies: Record<string, number[]> = Object.fromEntries(Object.keys(probes).map((k) => [k, []]));
    let importing = true;
    const prober = (async () => {
      while (importing) {
        await Promise.all(
          Object.entries(probes).map(async ([name, probe]) => {
            const started = performance.now();
            const res = await probe();
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`${name} answered ${res.status} during the import`);
            latencies[name]!.push(performance.now() - started);
          }),
        );
        await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      }
    })();
    const started = performance.now();
    try {
      await upload('fleet-50k.xlsx', workbook);
    } finally {
      importing = false;
    }
    const importMs = performance.now() - started;
    await prober;

    console.log(
      `workbook: ${ROWS} traction units, ${(workbook.length / 1e6).toFixed(1)} MB; PostgreSQL ${SERVER_URL.replace(/\/\/[^@]*@/, '//')}`,
    );
    console.log(
      `import over HTTP: ${(importMs / 1000).toFixed(1)} s = ${((ROWS / importMs) * 1000).toFixed(0)} rows/s`,
    );
    let worst = 0;
    for (const [name, values] of Object.entries(latencies)) {
      const sorted = [...values].sort((a, b) => a - b);
      const p95 = percentile(sorted, 95);
      worst = Math.max(worst, p95);
      console.log(
        `${name} during the import: ${sorted.length} calls, p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
      );
    }
    console.log(`goal p95 < ${GOAL_P95_MS} ms: ${worst < GOAL_P95_MS ? 'met' : 'NOT met'}`);
    console.log(`process RSS after the import: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
  } finally {
    t.database.pool?.on('error', () => undefined);
    await t.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExcelImportConcurrency();
