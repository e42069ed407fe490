// Excel import throughput (issue 3 point 9): a 5,000-row traction-unit workbook imported through
// POST /api/excel/domain/import (app.inject, the whole request path) against a throwaway database on
// a real PostgreSQL server. Goal: at least 2,000 rows/s. Also prints the physical floor: the same
// rows stored with one unnest INSERT per table, no parsing or validation.
import { randomUUID } from 'node:crypto';
import { readTableWorkbook } from '../apps/server/src/formats/xlsx/table-workbook.js';
import {
  evnFor,
  fixtureWorkbook,
  multipartBody,
  ORGANISATION_ROWS,
  tractionUnitRows,
  TYPE_ROWS,
} from '../apps/server/src/modules/excel/fixtures.js';
import { createTestApp } from '../apps/server/src/test/app.js';

const ROWS = 5_000;
const GOAL_ROWS_PER_S = 2_000;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function benchExcelImport(): Promise<void> {
  console.log('\n## Excel import');
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = SERVER_URL;
  const t = await createTestApp().finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  try {
    const headers = await t.headersFor('erex-administrator');
    const tenant = t.areaUuid('norway');
    const upload = async (fileName: string, bytes: Buffer) => {
      const body = multipartBody([{ fileName, bytes }]);
      const started = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/excel/domain/import',
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
      const ms = performance.now() - started;
      const answer = res.json() as { success?: boolean };
      if (res.statusCode !== 200 || !answer.success)
        throw new Error(`import failed: ${res.statusCode} ${res.body.slice(0, 500)}`);
      return ms;
    };

    await upload(
      'master.xlsx',
      await fixtureWorkbook([
        { name: 'Organisation', rows: ORGANISATION_ROWS },
        { name: 'TractionUnitType', rows: TYPE_ROWS },
      ]),
    );
    // A small warm-up import so the first measured run does not pay for JIT and connection set-up.
    await upload('warmup.xlsx', await fixtureWorkbook([{ name: 'TractionUnit', rows: tractionUnitRows(50, 900_000) }]));

    const first = await fixtureWorkbook([{ name: 'TractionUnit', rows: tractionUnitRows(ROWS, 1) }]);
    const second = await fixtureWorkbook([{ name: 'TractionUnit', rows: tractionUnitRows(ROWS, 100_001) }]);
    const parseStarted = performance.now();
    await readTableWorkbook(first);
    const parseMs = performance.now() - parseStarted;

    const runs = [await upload('fleet-1.xlsx', first), await upload('fleet-2.xlsx', second)];
    // Re-importing the same workbook: every row validated, nothing changed.
    const unchanged = await upload('fleet-1-again.xlsx', first);

    const rate = (ms: number) => (ROWS / ms) * 1000;
    const best = Math.min(...runs);
    console.log(
      `workbook: ${ROWS} traction units, ${(first.length / 1000).toFixed(0)} kB; PostgreSQL ${SERVER_URL.replace(/\/\/[^@]*@/, '//')}`,
    );
    for (const [i, ms] of runs.entries()) {
      console.log(`import ${i + 1} (new units): ${ms.toFixed(0)} ms = ${rate(ms).toFixed(0)} rows/s`);
    }
    console.log(
      `re-import of an unchanged workbook: ${unchanged.toFixed(0)} ms = ${rate(unchanged).toFixed(0)} rows/s`,
    );
    console.log(`  of which reading the xlsx alone: ${parseMs.toFixed(0)} ms`);
    console.log(
      `best: ${rate(best).toFixed(0)} rows/s; goal >= ${GOAL_ROWS_PER_S} rows/s: ${rate(best) >= GOAL_ROWS_PER_S ? 'met' : 'NOT met'}`,
    );

    // Physical floor: the same number of units straight into the tables with one unnest INSERT each.
    const [org] = await t.allAreas.query<{ entity_uuid: string }>(
      `SELECT entity_uuid FROM entity_segment WHERE tenant = $1 AND type = 'organisation' LIMIT 1`,
      [tenant],
    );
    const uuids = Array.from({ length: ROWS }, () => randomUUID());
    const evns = uuids.map((_, i) => evnFor(200_001 + i));
    const attributes = evns.map((evn, i) =>
      JSON.stringify({ evn, description: `Locomotive ${i}`, owner: org!.entity_uuid, consumptionPointRefs: [] }),
    );
    const client = await t.database.pool!.connect();
    let floorMs: number;
    try {
      const started = performance.now();
      await client.query('BEGIN');
      // As the app writes: railwatt_app under row-level security, the transaction naming the area.
      await client.query(`SELECT set_config('railwatt.tenant', $1, true)`, [tenant]);
      await client.query(
        `INSERT INTO entity (uuid, tenant, type, created_by)
         SELECT u, $2::uuid, 'tractionunit', 'bench' FROM unnest($1::uuid[]) AS x(u)`,
        [uuids, tenant],
      );
      await client.query(
        `INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
         SELECT u, $2::uuid, 'tractionunit', tstzrange('2024-01-01', '2070-01-01', '[)'), 'TU ' || e, a, 'bench'
           FROM unnest($1::uuid[], $3::text[], $4::jsonb[]) AS x(u, e, a)`,
        [uuids, tenant, evns, attributes],
      );
      await client.query('COMMIT');
      floorMs = performance.now() - started;
    } finally {
      client.release();
    }
    console.log(
      `physical floor (one unnest INSERT per table, same rows): ${floorMs.toFixed(0)} ms = ${rate(floorMs).toFixed(0)} rows/s`,
    );
  } finally {
    // DROP DATABASE ... WITH (FORCE) in the test database's close can reach a pooled connection that
    // is still closing; that FATAL is expected, not a crash.
    t.database.pool?.on('error', () => undefined);
    await t.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchExcelImport();
