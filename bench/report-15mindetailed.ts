// The largest report (issue 20 item 8): 15mindetailed over a month of BENCH_REPORT_UNITS traction
// units (default 1,000; each with one consumption point metering every 5 minutes: ~8.9 million
// cebd_record rows, ~3 million quarter-hour rows) on the real PostgreSQL server (BENCH_DATABASE_URL
// overrides it), made the way the report-order job makes it: the report's one query
// (modules/reports/15mindetailed.ts) read through the kit's cursor (rows.ts, 2,000 rows a batch, as
// railwatt_app in the area under row-level security) and streamed through the csv and the xlsx
// renderer (formats/report), the bytes counted and dropped (the job writes them to the data log
// 1 MB at a time). Beside them, the bare SELECT of the same rows: the same query and cursor, the
// batches drained without rendering. Per run: time, rows/s, bytes, and this process's peak RSS and
// peak heap growth over the start (sampled every 20 ms): flat memory means the growth does not
// depend on the size. BENCH_REPORT_DAYS (default 31: October 2026 in Oslo) shortens the month.
// Run alone: node --expose-gc --import tsx bench/report-15mindetailed.ts (BENCH_REPORT_UNITS=50
// BENCH_REPORT_DAYS=7 for a quick look), or npm run bench -- report-15mindetailed. CI never runs it.
import { loadavg } from 'node:os';
import { areaCurrency } from '@railwatt/contracts';
import type { Database } from '../apps/server/src/db/client.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { tenantExecutor } from '../apps/server/src/db/tenant.js';
import { REPORT_RENDERERS, type RenderRow } from '../apps/server/src/formats/report/index.js';
import { fifteenMinDetailedReport } from '../apps/server/src/modules/reports/15mindetailed.js';
import { columnHeader, type ReportScope } from '../apps/server/src/modules/reports/define-report.js';
import { reportRows } from '../apps/server/src/modules/reports/rows.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';

const envNumber = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const UNITS = envNumber('BENCH_REPORT_UNITS', 1000);
const DAYS = Math.min(envNumber('BENCH_REPORT_DAYS', 31), 31);
const NORWAY = areaUuid('norway');
const ZONE = 'Europe/Oslo';
const FIRST_DAY = '2026-10-01';
const MB = 1024 * 1024;

const count = (n: number) => Math.round(n).toLocaleString('en');
const gc = () => (globalThis as { gc?: () => void }).gc?.();

interface Figures {
  name: string;
  ms: number;
  rows: number;
  bytes: number;
  peakRssMb: number;
  rssGrowthMb: number;
  heapGrowthMb: number;
}

/** Runs `work` sampling this process's memory every 20 ms: its peak RSS and heap growth over the start. */
async function measured(name: string, work: () => Promise<{ rows: number; bytes: number }>): Promise<Figures> {
  gc();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  const t0 = performance.now();
  try {
    const { rows, bytes } = await work();
    sample();
    return {
      name,
      ms: performance.now() - t0,
      rows,
      bytes,
      peakRssMb: peakRss / MB,
      rssGrowthMb: (peakRss - base.rss) / MB,
      heapGrowthMb: (peakHeap - base.heapUsed) / MB,
    };
  } finally {
    clearInterval(timer);
  }
}

export async function benchReport15minDetailed(): Promise<void> {
  console.log('\n## report 15mindetailed: a month streamed to csv and xlsx beside the bare SELECT of its rows');
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const owner: Database = await openTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  let app: Database | undefined;
  try {
    await seedDemo(owner, { only: ['areas', 'users'] });
    const lastDay = new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const started = performance.now();
    await generate(owner, lastDay);
    await owner.exec('VACUUM ANALYZE');
    const [sizes] = await owner.query<{ records: number; start: string; end: string }>(
      `SELECT (SELECT count(*) FROM cebd_record WHERE tenant = $1)::int AS records,
              rw_iso(($2::date)::timestamp AT TIME ZONE '${ZONE}') AS start,
              rw_iso((($3::date) + 1)::timestamp AT TIME ZONE '${ZONE}') AS end`,
      [NORWAY, FIRST_DAY, lastDay],
    );
    console.log(
      `${count(UNITS)} units x ${DAYS} days from ${FIRST_DAY} (${ZONE}): ${count(sizes!.records)} records, ` +
        `generated in ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(
            ' ',
          )}; node ${process.version}${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: heap not collected before each run)'}`,
    );

    app = await openDatabase({ url: owner.url! });
    await app.useAppRole();
    const ex = tenantExecutor(app, NORWAY);
    const scope: ReportScope = {
      tenant: NORWAY,
      zone: ZONE,
      currency: areaCurrency('norway'),
      language: 'en',
      period: { start: sizes!.start, end: sizes!.end },
      refs: {},
      organisations: null,
      resultId: null,
      statuses: [],
      refTime: sizes!.end,
      parameters: {},
    };
    const report = fifteenMinDetailedReport;
    const batches = () =>
      reportRows(ex, report.query(scope as never), report.sortKeys, { embedded: false }) as AsyncIterable<RenderRow[]>;
    const spec = {
      reportName: report.name,
      family: report.family,
      title: report.title.en,
      language: 'en',
      area: 'Norway',
      zone: ZONE,
      currency: scope.currency,
      period: scope.period,
      generatedAt: new Date().toISOString(),
      columns: report.columns.map((c) => ({ key: c.key, kind: c.kind, header: columnHeader(c, 'en', scope.currency) })),
    };
    const bare = () =>
      measured('bare SELECT (cursor)', async () => {
        let rows = 0;
        for await (const batch of batches()) rows += batch.length;
        return { rows, bytes: 0 };
      });
    const rendered = (format: 'csv' | 'xlsx') =>
      measured(`${format}`, async () => {
        let rows = 0;
        let bytes = 0;
        const counted = async function* () {
          for await (const batch of batches()) {
            rows += batch.length;
            yield batch;
          }
        };
        for await (const chunk of REPORT_RENDERERS[format].render(spec, counted())) bytes += chunk.byteLength;
        return { rows, bytes };
      });
    const figures = [await bare(), await rendered('csv'), await rendered('xlsx')];
    console.log(
      '| run | rows | time (s) | rows/s | file (MB) | peak RSS (MB) | RSS growth (MB) | heap growth (MB) | x bare |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const f of figures)
      console.log(
        `| ${f.name} | ${count(f.rows)} | ${(f.ms / 1000).toFixed(1)} | ${count((f.rows / f.ms) * 1000)} | ` +
          `${(f.bytes / MB).toFixed(1)} | ${f.peakRssMb.toFixed(0)} | ${f.rssGrowthMb.toFixed(0)} | ` +
          `${f.heapGrowthMb.toFixed(0)} | ${(f.ms / figures[0]!.ms).toFixed(1)} |`,
      );
  } finally {
    await app?.close();
    await owner.close();
  }
}

/**
 * The month's data, set-based: a grid area and a price area, UNITS traction units each with one
 * consumption point, and every 5-minute record of every unit, checked (codes '{}', placed in the
 * grid area), a few of them of quality 61 and one in 200 rejected (code 2), as cebd-preprocessing
 * leaves them.
 */
async function generate(database: Database, lastDay: string): Promise<void> {
  const t = NORWAY;
  await database.exec(`
    CREATE TEMP TABLE bench_unit AS
      SELECT n, gen_random_uuid() AS unit, gen_random_uuid() AS cp, '9476' || lpad(n::text, 8, '0') AS evn
        FROM generate_series(1, ${UNITS}) AS n;
    CREATE TEMP TABLE bench_other AS SELECT gen_random_uuid() AS grid, gen_random_uuid() AS price;
    INSERT INTO entity (uuid, tenant, type, created_by)
      SELECT unit, '${t}'::uuid, 'tractionunit', 'bench' FROM bench_unit
      UNION ALL SELECT cp, '${t}'::uuid, 'consumptionpoint', 'bench' FROM bench_unit
      UNION ALL SELECT grid, '${t}'::uuid, 'gridarea', 'bench' FROM bench_other
      UNION ALL SELECT price, '${t}'::uuid, 'pricearea', 'bench' FROM bench_other;
    INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
      SELECT unit, '${t}'::uuid, 'tractionunit', tstzrange('2020-01-01', NULL), 'Unit ' || n, jsonb_build_object('evn', evn), 'bench'
        FROM bench_unit
      UNION ALL
      SELECT cp, '${t}'::uuid, 'consumptionpoint', tstzrange('2020-01-01', NULL), 'CP ' || n,
             jsonb_build_object('cpid', 'BENCH-' || lpad(n::text, 5, '0'), 'tractionUnitRef', unit::text), 'bench'
        FROM bench_unit
      UNION ALL
      SELECT grid, '${t}'::uuid, 'gridarea', tstzrange('2020-01-01', NULL), 'Bench grid', jsonb_build_object('priceAreaRef', price::text), 'bench'
        FROM bench_other
      UNION ALL
      SELECT price, '${t}'::uuid, 'pricearea', tstzrange('2020-01-01', NULL), 'Bench price area', '{}'::jsonb, 'bench'
        FROM bench_other;
    SELECT rw_ensure_cebd_record_months(('${FIRST_DAY}'::date)::timestamp AT TIME ZONE '${ZONE}',
                                        (('${lastDay}'::date) + 1)::timestamp AT TIME ZONE '${ZONE}');
    INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, traction_unit_uuid, grid_area_uuid,
                             price_area_uuid, active_consumed, active_regenerated, reactive_consumed,
                             reactive_regenerated, quality, traction_system, codes, checked_at)
      SELECT '${t}'::uuid, u.cp, p, u.unit, o.grid, o.price, ((extract(epoch FROM p)::bigint / 300 + u.n) % 50)::numeric,
             ((extract(epoch FROM p)::bigint / 300 + u.n) % 7)::numeric, 1.5, 0.25,
             CASE WHEN (extract(epoch FROM p)::bigint / 300 + u.n) % 100 = 0 THEN 61 ELSE 127 END, '15kV16.7Hz',
             CASE WHEN (extract(epoch FROM p)::bigint / 300 + u.n) % 200 = 7 THEN '{2}'::smallint[] ELSE '{}' END, now()
        FROM bench_unit u CROSS JOIN bench_other o
       CROSS JOIN generate_series(('${FIRST_DAY}'::date)::timestamp AT TIME ZONE '${ZONE}' + interval '5 minutes',
                                  (('${lastDay}'::date) + 1)::timestamp AT TIME ZONE '${ZONE}',
                                  interval '5 minutes') AS p;
  `);
}

if (process.argv[1]?.endsWith('report-15mindetailed.ts')) await benchReport15minDetailed();
