// combine (issue 9 item 4) for a month of one area on the real PostgreSQL server
// (BENCH_DATABASE_URL overrides it): BENCH_COMBINE_UNITS traction units (default 1,000), each
// with one consumption point metering every 5 minutes of BENCH_COMBINE_DAYS days (default 31:
// October 2026 in Oslo, ~8.9 million cebd_record rows) and six train runs a day of 2 h 15 min
// (so about 56 % of the records lie in a run). The data are generated set-based in SQL (not by
// parsing files: cebd-preprocessing has its own bench). Then combine runs the days as the procedure
// does (one transaction per area day, as railwatt_app, COMBINE_CONCURRENCY days at once) and, as
// the floor, one SQL aggregate over the same rows (the energy per traction unit and day, join-free)
// as the same user under the same row-level security, measured before and after combine in the
// same run; the ratio is to the faster of the two, with the load average (other processes share
// the machine). Run alone: node --import tsx bench/combine.ts (BENCH_COMBINE_UNITS=200
// BENCH_COMBINE_DAYS=7 for a quick look). CI never runs it (bench/run.ts is run by hand).
import type { Database } from '../apps/server/src/db/client.js';
import { loadavg } from 'node:os';
import { tenantDatabase, tenantExecutor } from '../apps/server/src/db/tenant.js';
import { areaDays } from '../apps/server/src/modules/processing/chunks.js';
import { combine, COMBINE_CONCURRENCY } from '../apps/server/src/modules/processing/combine.js';
import { forEachLimited } from '../apps/server/src/modules/processing/run.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { serviceContext } from '../apps/server/src/test/context.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';
import { ADMIN_ACTOR } from '../apps/server/src/test/records.js';

const UNITS = Number(process.env.BENCH_COMBINE_UNITS ?? 1000);
const DAYS = Number(process.env.BENCH_COMBINE_DAYS ?? 31);
const NORWAY = areaUuid('norway');
const ZONE = 'Europe/Oslo';
const FIRST_DAY = '2026-10-01';

export async function benchCombine(): Promise<void> {
  console.log('\n## combine of a month against one aggregate over the same rows');
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const database: Database = await openTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  try {
    await seedDemo(database, { only: ['areas', 'users'] });
    const lastDay = new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    let started = performance.now();
    await generate(database, lastDay);
    await database.exec('VACUUM ANALYZE');
    const [{ records }] = (await database.query<{ records: string }>(
      `SELECT count(*) AS records FROM cebd_record WHERE tenant = $1`,
      [NORWAY],
    )) as [{ records: string }];
    console.log(
      `${UNITS} units x ${DAYS} days: ${Number(records).toLocaleString('en')} records, ${(UNITS * DAYS * 6).toLocaleString('en')} train runs, generated in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const period = await database.query<{ start: string; end: string }>(
      `SELECT rw_iso(($1::date)::timestamp AT TIME ZONE '${ZONE}') AS start,
              rw_iso((($2::date) + 1)::timestamp AT TIME ZONE '${ZONE}') AS end`,
      [FIRST_DAY, lastDay],
    );
    // The rows name the run that wrote them, as the procedure's do.
    const [{ id: procedureResultId }] = (await database.query<{ id: number }>(
      `INSERT INTO procedure_result (tenant, procedure_name, period_start, period_end, username)
       VALUES ($1, 'combine', $2, $3, 'bench') RETURNING id::int AS id`,
      [NORWAY, period[0]!.start, period[0]!.end],
    )) as [{ id: number }];
    await database.useAppRole();
    // The floor: the same rows read once, the energy per unit and day, as railwatt_app in the area
    // (row-level security applies, as to combine). PostgreSQL may scan with parallel workers, as
    // combine runs days side by side: both may use the two cores.
    const area = tenantDatabase(database, NORWAY);
    const floor = async () => {
      const t0 = performance.now();
      await area.query(
        `SELECT traction_unit_uuid, date_trunc('day', period_end, '${ZONE}'), sum(active_consumed), count(*)
           FROM cebd_record WHERE tenant = $1 AND period_end > $2 AND period_end <= $3 GROUP BY 1, 2`,
        [NORWAY, period[0]!.start, period[0]!.end],
      );
      return performance.now() - t0;
    };
    const load = () => loadavg()[0]!.toFixed(1);
    const floorBefore = await floor();
    const ctx = serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, {
      timeZone: ZONE,
      kind: 'norway',
      name: 'Norway',
    });
    const chunks = areaDays(period[0]!.start, period[0]!.end, ZONE);
    let attached = 0;
    let seen = 0;
    let slowest = 0;
    const loadBefore = load();
    started = performance.now();
    await forEachLimited(chunks, COMBINE_CONCURRENCY, async (chunk) => {
      const t0 = performance.now();
      const result = await combine(ctx, chunk, { toleranceMinutes: 5, procedureResultId });
      slowest = Math.max(slowest, performance.now() - t0);
      attached += result.attached;
      seen += result.records;
    });
    const ms = performance.now() - started;
    const loadAfter = load();
    const floorAfter = await floor();
    const floorMs = Math.min(floorBefore, floorAfter);
    const perS = (n: number, t: number) => Math.round((n / t) * 1000).toLocaleString('en');
    console.log(
      `combine ${chunks.length} area days: ${seen.toLocaleString('en')} records, ${attached.toLocaleString('en')} attached (${((attached / seen) * 100).toFixed(0)} %)`,
    );
    console.log(
      `combine ${(ms / 1000).toFixed(1)} s (${perS(seen, ms)} records/s, ${COMBINE_CONCURRENCY} days at once, slowest day ${(slowest / 1000).toFixed(1)} s; load ${loadBefore} -> ${loadAfter})`,
    );
    console.log(
      `floor ${(floorBefore / 1000).toFixed(1)} s before, ${(floorAfter / 1000).toFixed(1)} s after (${perS(Number(records), floorMs)} records/s); ratio ${(ms / floorMs).toFixed(1)}x`,
    );
  } finally {
    await database.close();
  }
}

/**
 * The month's data, set-based, as the owning user: units and their consumption points (entity and
 * entity_segment; entity_latest follows by its triggers), five railway undertakings, a train run
 * every three hours from 04:00 local time (six a day, 2 h 15 min each, staggered by unit), and
 * every 5-minute record of every unit.
 */
async function generate(database: Database, lastDay: string): Promise<void> {
  const t = NORWAY;
  await database.exec(`
    CREATE TEMP TABLE bench_unit AS
      SELECT n, gen_random_uuid() AS unit, gen_random_uuid() AS cp, '9476' || lpad(n::text, 8, '0') AS evn
        FROM generate_series(1, ${UNITS}) AS n;
    CREATE TEMP TABLE bench_ru AS SELECT k, gen_random_uuid() AS ru FROM generate_series(0, 4) AS g(k);
    CREATE TEMP TABLE bench_other AS SELECT gen_random_uuid() AS tc, gen_random_uuid() AS grid, gen_random_uuid() AS price;
    INSERT INTO entity (uuid, tenant, type, created_by)
      SELECT unit, '${t}'::uuid, 'tractionunit', 'bench' FROM bench_unit
      UNION ALL SELECT cp, '${t}'::uuid, 'consumptionpoint', 'bench' FROM bench_unit
      UNION ALL SELECT ru, '${t}'::uuid, 'organisation', 'bench' FROM bench_ru
      UNION ALL SELECT tc, '${t}'::uuid, 'trafficcategory', 'bench' FROM bench_other;
    INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
      SELECT unit, '${t}'::uuid, 'tractionunit', tstzrange('2020-01-01', NULL), 'Unit ' || n, jsonb_build_object('evn', evn), 'bench'
        FROM bench_unit
      UNION ALL
      SELECT cp, '${t}'::uuid, 'consumptionpoint', tstzrange('2020-01-01', NULL), 'CP ' || n,
             jsonb_build_object('cpid', 'BENCH-' || n, 'tractionUnitRef', unit::text), 'bench'
        FROM bench_unit
      UNION ALL
      SELECT ru, '${t}'::uuid, 'organisation', tstzrange('2020-01-01', NULL), 'RU ' || k, jsonb_build_object('orgId', 'RU' || k), 'bench'
        FROM bench_ru
      UNION ALL
      SELECT tc, '${t}'::uuid, 'trafficcategory', tstzrange('2020-01-01', NULL), 'Freight', '{}'::jsonb, 'bench' FROM bench_other;
    INSERT INTO data_log (tenant, message_type, message_status) VALUES ('${t}'::uuid, 'TRAIN_RUN_INPUT', 'OK');
    CREATE TEMP TABLE bench_day AS
      SELECT d::date AS day, (d::timestamp AT TIME ZONE '${ZONE}') AS day_start
        FROM generate_series('${FIRST_DAY}'::date, '${lastDay}'::date, interval '1 day') AS d;
    INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                           gross_tonne_km, data_log_id, created_at)
      SELECT '${t}'::uuid, (u.n * 10 + j.k)::text, d.day, r.ru, o.tc,
             d.day_start + interval '4 hours' + j.k * interval '3 hours' + (u.n % 12) * interval '5 minutes',
             d.day_start + interval '6 hours 15 minutes' + j.k * interval '3 hours' + (u.n % 12) * interval '5 minutes',
             30000, (SELECT max(id) FROM data_log), d.day_start + interval '1 day'
        FROM bench_unit u CROSS JOIN bench_day d CROSS JOIN generate_series(0, 5) AS j(k)
        JOIN bench_ru r ON r.k = u.n % 5 CROSS JOIN bench_other o;
    INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
      SELECT r.id, r.tenant, 1, u.evn, u.unit, 84
        FROM train_run r JOIN bench_unit u ON u.n = r.train_number::int / 10
       WHERE r.tenant = '${t}'::uuid;
    SELECT rw_ensure_cebd_record_months((SELECT min(day_start) FROM bench_day),
                                        ((SELECT max(day) FROM bench_day) + 1)::timestamp AT TIME ZONE '${ZONE}');
    -- Checked records (codes '{}'), as cebd-preprocessing leaves them.
    INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, traction_unit_uuid, grid_area_uuid,
                             price_area_uuid, active_consumed, active_regenerated, reactive_consumed,
                             reactive_regenerated, quality, codes, checked_at)
      SELECT '${t}'::uuid, u.cp, p, u.unit, o.grid, o.price, ((extract(epoch FROM p)::bigint / 300 + u.n) % 50)::numeric,
             0, 0, 0, CASE WHEN (extract(epoch FROM p)::bigint / 300 + u.n) % 100 = 0 THEN 61 ELSE 127 END, '{}', now()
        FROM bench_unit u CROSS JOIN bench_other o
       CROSS JOIN generate_series((SELECT min(day_start) FROM bench_day) + interval '5 minutes',
                                  ((SELECT max(day) FROM bench_day) + 1)::timestamp AT TIME ZONE '${ZONE}',
                                  interval '5 minutes') AS p;
  `);
}

if (process.argv[1]?.endsWith('combine.ts')) await benchCombine();
