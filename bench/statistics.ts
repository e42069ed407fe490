// The statistics calls (issue 9 item 6) on a week of CEBD for one area on the real PostgreSQL server
// (BENCH_DATABASE_URL overrides it): the seeded Norwegian fleet (BENCH_STATS_UNITS units, ~1.2
// consumption points each), BENCH_STATS_DAYS days of 5-minute records per point ending now (one
// file per point and day), all but the last day preprocessed, the first half allocated, 5,000 events
// and 1,000 runs. Each service is timed as railwatt_app under row-level security (best and median
// of 5 calls); the dashboard refreshes all of them every 30 s. Run alone: node --import tsx bench/statistics.ts
import type { Database } from '../apps/server/src/db/client.js';
import { tenantExecutor } from '../apps/server/src/db/tenant.js';
import {
  cebdDeliveryInfo,
  cebdStatistics,
  completenessVerification,
  dashboardEvents,
  dashboardStatistics,
  waitingWork,
} from '../apps/server/src/modules/statistics/service.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedFleetData } from '../apps/server/src/seed/fleet.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { serviceContext } from '../apps/server/src/test/context.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';
import { ADMIN_ACTOR } from '../apps/server/src/test/records.js';

const UNITS = Number(process.env.BENCH_STATS_UNITS ?? 1000);
const DAYS = Number(process.env.BENCH_STATS_DAYS ?? 7);
const NORWAY = areaUuid('norway');

export async function benchStatistics(): Promise<void> {
  console.log('\n## statistics calls over a week of CEBD of one area');
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const database: Database = await openTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  try {
    await seedDemo(database, { only: ['areas', 'users'] });
    await seedFleetData(database, { unitsPerCountry: UNITS, countries: ['norway'] });
    let started = performance.now();
    // One CEBD file per point and day, logged at the end of its day; its 288 records.
    await database.query(
      `CREATE TEMP TABLE bench_file AS
       WITH points AS (SELECT entity_uuid AS cp FROM entity_latest WHERE tenant = $1 AND type = 'consumptionpoint'),
            days AS (SELECT generate_series(0, $2 - 1) AS d)
       SELECT cp, d, date_trunc('day', now()) - (d || ' days')::interval AS day_start FROM points, days`,
      [NORWAY, DAYS],
    );
    await database.query(
      `ALTER TABLE bench_file ADD COLUMN id bigint;
       UPDATE bench_file SET id = nextval('data_log_id_seq')`,
    );
    await database.query(
      `INSERT INTO data_log (id, tenant, message_type, message_status, log_time_stamp, file_name)
       SELECT id, $1, 'CEBD_IMPORT', CASE WHEN id % 50 = 0 THEN 'ERROR' ELSE 'OK' END,
              least(day_start + interval '23 hours', now()), 'bench-' || id || '.xml'
         FROM bench_file`,
      [NORWAY],
    );
    await database.query(`SELECT rw_ensure_cebd_record_months(now() - $1 * interval '1 day', now())`, [DAYS]);
    // One row per record; the records before today checked (code 58 at half past), as
    // cebd-preprocessing leaves them.
    await database.query(
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, quality, traction_system, data_log_id,
                                traction_unit_uuid, codes, checked_at)
       SELECT $1, f.cp, t.period_end, 46, '02', f.id, CASE WHEN t.checked THEN c.unit_ref::uuid END,
              CASE WHEN NOT t.checked THEN NULL
                   WHEN extract(minute FROM t.period_end) = 30 THEN '{58}'::smallint[] ELSE '{}' END,
              CASE WHEN t.checked THEN t.period_end + interval '1 day' END
         FROM bench_file f
         JOIN entity_latest c ON c.entity_uuid = f.cp
         CROSS JOIN generate_series(1, 288) AS k
         CROSS JOIN LATERAL (SELECT f.day_start + k * interval '5 minutes' AS period_end,
                                    f.day_start + k * interval '5 minutes' < date_trunc('day', now()) AS checked) t
        WHERE t.period_end <= now()`,
      [NORWAY],
    );
    // The valid records allocated as combine writes them (migration 0380): sums per point and hour,
    // one per island of consecutive records (the :30 record with code 58 splits an hour in two).
    await database.query(
      `INSERT INTO allocated_energy_hourly
              (tenant, hour_start, category, payer, consumption_point_uuid, traction_unit_uuid, active_consumed,
               active_regenerated, records, first_period_end, last_period_end, allocated_at)
       SELECT tenant, hour, 'train-run', 'ru', consumption_point_uuid, traction_unit_uuid, 0, 0, count(*),
              min(period_end), max(period_end), max(period_end) + interval '2 days'
         FROM (SELECT p.*, date_trunc('hour', p.period_end - interval '1 microsecond', 'UTC') AS hour,
                      p.period_end - interval '5 minutes' * row_number() OVER (
                        PARTITION BY p.consumption_point_uuid, date_trunc('hour', p.period_end - interval '1 microsecond', 'UTC')
                        ORDER BY p.period_end) AS island
                 FROM cebd_record p
                WHERE p.tenant = $1 AND p.codes = '{}' AND p.period_end < now() - ($2 * interval '12 hours')) x
        GROUP BY tenant, hour, consumption_point_uuid, traction_unit_uuid, island`,
      [NORWAY, DAYS],
    );
    await database.query(
      `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username, execute_start_time)
       SELECT $1, (ARRAY['combine', 'cebd-preprocessing', 'shunting-and-stabling'])[1 + k % 3],
              (ARRAY['success', 'failure', 'approved'])[1 + k % 3],
              '2020-01-01'::timestamptz + k * interval '1 day', '2020-01-01'::timestamptz + (k + 1) * interval '1 day',
              'bench', now() - k * interval '10 minutes'
         FROM generate_series(1, 1000) AS k`,
      [NORWAY],
    );
    await database.query(
      `INSERT INTO processing_event (tenant, process_name, error_code, severity, incidents, event_time, created_at)
       SELECT $1, (ARRAY['combine', 'cebd-preprocessing'])[1 + k % 2], (50 + k % 10)::text,
              (ARRAY['HIGH', 'MEDIUM', 'LOW'])[1 + k % 3], 1 + k % 5, now() - k * interval '1 minute',
              now() - k * interval '1 minute'
         FROM generate_series(1, 5000) AS k`,
      [NORWAY],
    );
    await database.exec('VACUUM ANALYZE');
    const [counts] = await database.query<{ points: number; records: number; preprocessed: number; allocated: number }>(
      `SELECT (SELECT count(DISTINCT cp) FROM bench_file)::int AS points,
              (SELECT count(*) FROM cebd_record WHERE tenant = $1)::int AS records,
              (SELECT count(codes) FROM cebd_record WHERE tenant = $1)::int AS preprocessed,
              (SELECT coalesce(sum(records), 0) FROM allocated_energy_hourly WHERE tenant = $1)::int AS allocated`,
      [NORWAY],
    );
    console.log(
      `${counts!.points.toLocaleString('en')} consumption points, ${counts!.records.toLocaleString('en')} records over ${DAYS} days, ${counts!.preprocessed.toLocaleString('en')} preprocessed, ${counts!.allocated.toLocaleString('en')} allocated (data built in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );

    await database.useAppRole();
    const ctx = serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, {
      timeZone: 'Europe/Oslo',
      kind: 'norway',
      name: 'Norway',
    });
    const calls: [string, () => Promise<unknown>][] = [
      ['dashboardstatistics', () => dashboardStatistics(ctx, {}, async () => [])],
      ['dashboardevents', () => dashboardEvents(ctx, {})],
      ['cebd (7 days)', () => cebdStatistics(ctx, undefined)],
      ['offset-lag', () => waitingWork(ctx)],
      ['completenessverification (24 h)', () => completenessVerification(ctx, 24)],
      ['cebd-delivery-info', () => cebdDeliveryInfo(ctx, 'VEHICLE_KEEPER')],
    ];
    // What one dashboard refresh asks (queue-size is a pg-boss look-up plus one small join).
    const dashboard = new Set(['dashboardstatistics', 'dashboardevents', 'cebd (7 days)', 'offset-lag']);
    let total = 0;
    for (const [name, call] of calls) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        started = performance.now();
        await call();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      if (dashboard.has(name)) total += times[2]!;
      console.log(`${name}: best ${times[0]!.toFixed(0)} ms, median ${times[2]!.toFixed(0)} ms`);
    }
    console.log(`one dashboard refresh (its four statistics calls, medians): ${total.toFixed(0)} ms`);
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStatistics();
