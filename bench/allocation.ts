// shunting-and-stabling and energy-outside-train-run (issue 9 item 4) for one day of one area on the
// real PostgreSQL server (BENCH_DATABASE_URL overrides it): BENCH_ALLOCATION_UNITS traction units
// (default 500), each with one consumption point, 288 preprocessed records and six 90-minute runs a
// day (every four hours from 00:30), the records inside the runs already combine's ('train-run'),
// the units owned by one vehicle keeper. Then each step for the day as railwatt_app, twice (the
// second run replaces the first's rows). Run alone: node --import tsx bench/allocation.ts
import type { Database } from '../apps/server/src/db/client.js';
import { tenantExecutor } from '../apps/server/src/db/tenant.js';
import { allocateEnergyOutsideTrainRun } from '../apps/server/src/modules/allocation/energy-outside-train-run.js';
import { allocateShuntingAndStabling } from '../apps/server/src/modules/allocation/shunting-and-stabling.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { serviceContext } from '../apps/server/src/test/context.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';
import { ADMIN_ACTOR } from '../apps/server/src/test/records.js';

const UNITS = Number(process.env.BENCH_ALLOCATION_UNITS ?? 500);
const NORWAY = areaUuid('norway');
const DAY = { start: '2026-10-01T00:00:00Z', end: '2026-10-02T00:00:00Z' };

/** The day's data, set-based (generate_series), as the owning user. */
async function seedDay(database: Database): Promise<void> {
  const q = (text: string) => database.query(text, [NORWAY, DAY.start, UNITS]);
  await q(`INSERT INTO entity (uuid, tenant, type, created_by)
           SELECT ('00000000-0000-4000-a000-' || lpad(i::text, 12, '0'))::uuid, $1, 'organisation', 'bench'
             FROM generate_series(0, 2) i WHERE $2::text IS NOT NULL AND $3::int > 0`);
  await q(`INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
           SELECT ('00000000-0000-4000-a000-' || lpad(i::text, 12, '0'))::uuid, $1, 'organisation',
                  tstzrange('2000-01-01', NULL), 'Org ' || i, '{}'::jsonb, 'bench'
             FROM generate_series(0, 2) i WHERE $2::text IS NOT NULL AND $3::int > 0`);
  await q(`INSERT INTO entity (uuid, tenant, type, created_by)
           SELECT ('00000000-0000-4000-b000-' || lpad(i::text, 12, '0'))::uuid, $1, 'tractionunit', 'bench'
             FROM generate_series(1, $3::int) i WHERE $2::text IS NOT NULL`);
  await q(`INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
           SELECT ('00000000-0000-4000-b000-' || lpad(i::text, 12, '0'))::uuid, $1, 'tractionunit',
                  tstzrange('2000-01-01', NULL), 'U' || i,
                  jsonb_build_object('evn', '9' || lpad(i::text, 11, '0'), 'owner', '00000000-0000-4000-a000-000000000000'),
                  'bench'
             FROM generate_series(1, $3::int) i WHERE $2::text IS NOT NULL`);
  await q(`INSERT INTO entity (uuid, tenant, type, created_by)
           SELECT '00000000-0000-4000-c000-000000000001', $1, 'trafficcategory', 'bench'
            WHERE $2::text IS NOT NULL AND $3::int > 0`);
  await q(`INSERT INTO data_log (id, tenant, message_type, message_status)
           SELECT 990001, $1, 'TRAIN_RUN', 'OK' WHERE $2::text IS NOT NULL AND $3::int > 0`);
  // Six runs per unit: departures 00:30, 04:30, ... 20:30 (shifted by the unit's minute), 90 minutes long.
  await q(`INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                                  gross_tonne_km, data_log_id)
           SELECT $1, 'T' || u || '-' || k, $2::date,
                  ('00000000-0000-4000-a000-' || lpad((1 + u % 2)::text, 12, '0'))::uuid,
                  '00000000-0000-4000-c000-000000000001',
                  $2::timestamptz + make_interval(mins => 30 + 240 * k + (u % 12) * 5),
                  $2::timestamptz + make_interval(mins => 120 + 240 * k + (u % 12) * 5), 100, 990001
             FROM generate_series(1, $3::int) u, generate_series(0, 5) k`);
  await q(`INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
           SELECT r.id, $1, 1, '9' || lpad(split_part(substr(r.train_number, 2), '-', 1), 11, '0'),
                  ('00000000-0000-4000-b000-' || lpad(split_part(substr(r.train_number, 2), '-', 1), 12, '0'))::uuid, 80
             FROM train_run r WHERE r.tenant = $1 AND $2::text IS NOT NULL AND $3::int > 0`);
  await q(`SELECT rw_ensure_cebd_record_months($2::timestamptz, $2::timestamptz + interval '1 day')
             WHERE $1::uuid IS NOT NULL AND $3::int > 0`);
  // Checked records (codes '{}'), as cebd-preprocessing leaves them.
  await q(`INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, traction_unit_uuid,
                                    active_consumed, active_regenerated, reactive_consumed, reactive_regenerated,
                                    quality, codes, checked_at)
           SELECT $1, ('00000000-0000-4000-d000-' || lpad(u::text, 12, '0'))::uuid,
                  $2::timestamptz + make_interval(mins => 5 * m),
                  ('00000000-0000-4000-b000-' || lpad(u::text, 12, '0'))::uuid, 10, 1, 0, 0, 127, '{}', now()
             FROM generate_series(1, $3::int) u, generate_series(1, 288) m`);
  // Combine's part: the records inside a run, as combine writes them (migration 0380): one sum per
  // run, point and hour (the records of a run follow each other: one island).
  await q(`INSERT INTO allocated_energy_hourly
                  (tenant, hour_start, category, organisation_uuid, payer, consumption_point_uuid, traction_unit_uuid,
                   train_run_id, active_consumed, active_regenerated, records, first_period_end, last_period_end)
           SELECT p.tenant, date_trunc('hour', p.period_end - interval '1 microsecond', 'UTC'), 'train-run', r.ru_uuid,
                  'ru', p.consumption_point_uuid, p.traction_unit_uuid, r.id, sum(p.active_consumed),
                  sum(p.active_regenerated), count(*), min(p.period_end), max(p.period_end)
             FROM cebd_record p
             JOIN train_run_vehicle v ON v.traction_unit_uuid = p.traction_unit_uuid AND v.tenant = p.tenant
             JOIN train_run r ON r.id = v.train_run_id
            WHERE p.tenant = $1 AND p.period_end > r.departure AND p.period_end <= r.arrival
              AND $2::text IS NOT NULL AND $3::int > 0
            GROUP BY 1, 2, 4, 6, 7, 8`);
}

export async function benchAllocation(): Promise<void> {
  console.log('\n## shunting-and-stabling and energy-outside-train-run of a day');
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const database: Database = await openTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  try {
    await seedDemo(database, { only: ['areas', 'users'] });
    await seedDay(database);
    await database.exec('VACUUM ANALYZE');
    await database.useAppRole();
    const ctx = serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR);
    const time = async <T>(label: string, work: () => Promise<T>) => {
      const started = performance.now();
      const result = await work();
      const ms = performance.now() - started;
      console.log(`${label} ${(ms / 1000).toFixed(2)} s: ${JSON.stringify(result)}`);
    };
    console.log(`${(UNITS * 288).toLocaleString('en')} records (${UNITS} units x 288), ${UNITS * 6} runs`);
    for (const pass of ['first', 'again']) {
      await time(`shunting-and-stabling (${pass})`, () =>
        allocateShuntingAndStabling(ctx, DAY, { limitMinutes: 60, maxDaysLate: 5 }),
      );
      await time(`energy-outside-train-run (${pass})`, () =>
        allocateEnergyOutsideTrainRun(ctx, DAY, { limitMinutes: 1440 }),
      );
    }
  } finally {
    await database.close();
  }
}

if (process.argv[1]?.endsWith('allocation.ts')) await benchAllocation();
