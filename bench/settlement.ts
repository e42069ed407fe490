// The whole processing chain for a month of one area on the real PostgreSQL server (issue: "a month
// for 10,000 units settled end to end in under 10 minutes on these 2 cores"; BENCH_DATABASE_URL
// overrides the server). As the product runs it (ARCHITECTURE.md "Allocated as the days arrive"):
// each CEBD file is checked as it arrives, each night allocates the days before (train-preprocessing,
// combine, shunting-and-stabling, energy-outside-train-run: the month's days before the last here),
// and month end runs, from the last day's file stored, its check, the allocation's runs over the month
// with onlyDue (the last day done, the others skipped) and price-and-supply and settlement over the
// month. The estimate at 10,000 units is of that month end; beside it, a day's check and a night's
// allocation. Each step runs through the procedure framework itself
// (modules/processing/run.ts executeRun: a procedure result, one transaction per area day with its
// events and done-mark, each definition's concurrency: two days at once, every step), as
// railwatt_app under row-level security: cebd-preprocessing, train-preprocessing, combine,
// shunting-and-stabling, energy-outside-train-run, price-and-supply, settlement.
//
// Data, generated set-based in SQL in a fresh database (dropped at the end): the seeded Norwegian
// infrastructure (Natural Earth grid areas, price areas, supply metering points, EMS types),
// BENCH_SETTLEMENT_UNITS traction units (default 2,500), each with one consumption point metering
// every 5 minutes (passing through the grid areas hour by hour), owned by one vehicle keeper, and
// six train runs a day of 2 h 15 min (every three hours from 04:00, five RUs), as bench/combine.ts.
// cebd-preprocessing checks the records the intake stored (cebd_record rows, not checked yet); at 55,000-65,000 records/s two days at once (30,000-40,000 one day at a
// time, 5,000-9,000 before its placement and master data became set-based) a month of 1,000 units
// would alone take about 3 minutes, so it is measured over the first BENCH_SETTLEMENT_CEBD_DAYS
// days (default 2: the days run side by side, one day alone would use one core) and scaled to the
// month; the other days' records are generated checked, with the same values, places and areas. Hourly supply per grid area (the metered energy plus 3-6 % losses),
// spot prices per price area and the NOK rate are generated after cebd-preprocessing.
//
// Over BENCH_SETTLEMENT_DAYS days (default 31: October 2026 in Oslo, a 25-hour day included; fewer
// days are scaled to 31 and say so), per step: time, rows/s and the month's time; the floor (one
// SQL aggregate over the same cebd_record rows as railwatt_app, as bench/combine.ts) and the
// ratio. Then the same at BENCH_SETTLEMENT_SMALL_UNITS (default 1,000; BENCH_SETTLEMENT_UNITS default
// 2,500) and, from the two sizes, a
// linear estimate per step of a month of 10,000 units against the goal of 10 minutes. Beside the
// read floor, a write floor: the rows cebd-preprocessing checked, copied by one INSERT ... SELECT into
// a table with the same indexes, and its estimate at 10,000 units (storing the output alone). The default
// run takes about 7 minutes on the shared 2 cores (BENCH_SETTLEMENT_DAYS=14 roughly halves it).
// Run alone: node --import tsx bench/settlement.ts (BENCH_SETTLEMENT_UNITS=200
// BENCH_SETTLEMENT_SMALL_UNITS=50 BENCH_SETTLEMENT_DAYS=3 for a quick look), or
// npm run bench -- settlement. CI never runs it.
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { CEBD_SERIES, type ProcedureName } from '@railwatt/contracts';
import type { ServiceContext } from '../apps/server/src/context.js';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { tenantDatabase, tenantExecutor } from '../apps/server/src/db/tenant.js';
import { procedureTable } from '../apps/server/src/modules/processing/define-procedure.js';
import { executeRun } from '../apps/server/src/modules/processing/run.js';
import { ALL_PROCEDURES } from '../apps/server/src/procedures.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { seedInfrastructureData } from '../apps/server/src/seed/infrastructure.js';
import { serviceContext } from '../apps/server/src/test/context.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';
import { ADMIN_ACTOR } from '../apps/server/src/test/records.js';

/** The procedures a run is given (the app's list); no chain: the bench runs each step itself. */
const PROCEDURES = procedureTable(ALL_PROCEDURES);

const envNumber = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const UNITS = envNumber('BENCH_SETTLEMENT_UNITS', 2500);
const SMALL_UNITS = envNumber('BENCH_SETTLEMENT_SMALL_UNITS', 1000);
const MONTH_DAYS = 31;
const DAYS = Math.min(envNumber('BENCH_SETTLEMENT_DAYS', MONTH_DAYS), MONTH_DAYS);
// The days before the last are allocated as they arrive, the last at month end: two at least.
if (DAYS < 2) throw new Error('BENCH_SETTLEMENT_DAYS must be 2 or more');
const CEBD_DAYS = Math.min(envNumber('BENCH_SETTLEMENT_CEBD_DAYS', 2), DAYS);
/** ANALYZE before each step (default), as autovacuum would; 0 runs the chain on the statistics of the load. */
const ANALYZE = process.env.BENCH_SETTLEMENT_ANALYZE !== '0';
const TARGET_UNITS = 10_000;
const GOAL_S = 600;

const NORWAY = areaUuid('norway');
const ZONE = 'Europe/Oslo';
const FIRST_DAY = '2026-10-01';
/** Positions per grid area the units' records are spread over (random interior points). */
const POINTS_PER_GRID = 16;

/** The chain in its order; `input` names what the step reads, the rows its rows/s is counted in. */
const STEPS = [
  { name: 'cebd-preprocessing', input: 'records' },
  { name: 'train-preprocessing', input: 'runs' },
  { name: 'combine', input: 'records' },
  { name: 'shunting-and-stabling', input: 'records' },
  { name: 'energy-outside-train-run', input: 'records' },
  { name: 'price-and-supply', input: 'allocated sums' },
  { name: 'settlement', input: 'priced' },
] as const satisfies readonly { name: ProcedureName; input: string }[];
type StepName = (typeof STEPS)[number]['name'];
/** The steps the nightly allocation runs (jobs/nightly-allocation.ts), a day at a time as the days arrive. */
const ALLOCATION: readonly StepName[] = [
  'train-preprocessing',
  'combine',
  'shunting-and-stabling',
  'energy-outside-train-run',
];

interface StepFigures {
  name: StepName;
  /** Run option onlyDue (the month-end runs: the days allocated nightly are skipped). */
  onlyDue?: boolean;
  /** Area days its time is for: a step over the month's days scales to 31 (monthMs); 31 scales nothing. */
  days: number;
  ms: number;
  /** Rows read (its input), rows written. */
  rows: number;
  input: string;
  written: string;
  events: string;
}

interface Measurement {
  units: number;
  records: number;
  runs: number;
  /** The check on arrival (cebd-preprocessing over CEBD_DAYS days). */
  arrival: StepFigures;
  /** The nightly allocation over the days before the last (its time is per night times the nights). */
  nightly: StepFigures[];
  /** From the last day's file stored to a settlement ready to approve, besides the last day's check. */
  monthEnd: StepFigures[];
  floorMs: number;
  /** Writing what cebd-preprocessing wrote over its CEBD_DAYS days, with nothing else to do (see measure). */
  writeFloorMs: number;
}

const seconds = (ms: number, digits = 1) => (ms / 1000).toFixed(digits);
const count = (n: number) => Math.round(n).toLocaleString('en');
const perS = (n: number, ms: number) => count((n / ms) * 1000);
/** A step's time over the whole month (days beyond those measured scaled linearly: one chunk per day). */
const monthMs = (step: Pick<StepFigures, 'ms' | 'days'>) => (step.ms * MONTH_DAYS) / step.days;
const pad = (text: string, width: number) => text.padEnd(width);
const padStart = (text: string, width: number) => text.padStart(width);

export async function benchSettlement(): Promise<void> {
  console.log('\n## settlement: the processing chain of a month against one aggregate over the same rows');
  const scaled = DAYS < MONTH_DAYS ? `, scaled to ${MONTH_DAYS}` : '';
  console.log(
    `sizes ${count(UNITS)} and ${count(SMALL_UNITS)} units x ${DAYS} days from ${FIRST_DAY} (${ZONE})${scaled}; ` +
      `cebd-preprocessing over ${CEBD_DAYS} day${CEBD_DAYS > 1 ? 's' : ''}, scaled to ${MONTH_DAYS}`,
  );
  const large = await measure(UNITS);
  const small = await measure(SMALL_UNITS);
  printEstimate(small, large);
}

/** One size: a fresh database, the data, the chain step by step, the floor. */
async function measure(units: number): Promise<Measurement> {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const owner: Database = await openTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  let app: Database | undefined;
  try {
    const [{ version, autovacuum }] = (await owner.query<{ version: string; autovacuum: string }>(
      `SELECT current_setting('server_version') AS version, current_setting('autovacuum') AS autovacuum`,
    )) as [{ version: string; autovacuum: string }];
    await seedDemo(owner, { only: ['areas', 'users'] });
    await seedInfrastructureData(owner, ['norway']);
    const lastDay = new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
    const [period] = await owner.query<{ start: string; cebd_end: string; last_start: string; end: string }>(
      `SELECT rw_iso(($1::date)::timestamp AT TIME ZONE '${ZONE}') AS start,
              rw_iso((($1::date) + $2::int)::timestamp AT TIME ZONE '${ZONE}') AS cebd_end,
              rw_iso(($3::date)::timestamp AT TIME ZONE '${ZONE}') AS last_start,
              rw_iso((($3::date) + 1)::timestamp AT TIME ZONE '${ZONE}') AS end`,
      [FIRST_DAY, CEBD_DAYS, lastDay],
    );
    const { start, end } = period!;
    const cebdEnd = period!.cebd_end;
    const lastStart = period!.last_start;

    let started = performance.now();
    await generate(owner, units, { start, cebdEnd, end });
    await owner.exec('VACUUM ANALYZE');
    const [sizes] = await owner.query<{ records: number; runs: number; cebd: number }>(
      `SELECT (SELECT count(*) FROM cebd_record)::int AS records,
              (SELECT count(*) FROM train_run)::int AS runs,
              (SELECT count(*) - count(codes) FROM cebd_record)::int AS cebd`,
    );
    // The records cebd-preprocessing checks (codes NULL) are in the month's count.
    const records = sizes!.records;
    console.log(
      `\n### ${count(units)} units x ${DAYS} days: ${count(records)} records, ${count(sizes!.runs)} train runs ` +
        `(generated in ${seconds(performance.now() - started, 0)} s; PostgreSQL ${version.split(' ')[0]}, autovacuum ${autovacuum})`,
    );

    app = await openDatabase({ url: owner.url! });
    await app.useAppRole();
    const ctx = serviceContext(tenantExecutor(app, NORWAY), NORWAY, ADMIN_ACTOR, {
      timeZone: ZONE,
      kind: 'norway',
      name: 'Norway',
    });
    // The floor: the same rows read once, the energy per unit and day, as railwatt_app in the area
    // (row-level security applies, as to the steps). PostgreSQL may use parallel workers for it.
    const area = tenantDatabase(app, NORWAY);
    const floor = async () => {
      const t0 = performance.now();
      await area.query(
        `SELECT traction_unit_uuid, date_trunc('day', period_end, '${ZONE}'), sum(active_consumed), count(*)
           FROM cebd_record WHERE tenant = $1 AND period_end > $2 AND period_end <= $3 GROUP BY 1, 2`,
        [NORWAY, start, end],
      );
      return performance.now() - t0;
    };

    const loadBefore = loadavg()[0]!.toFixed(1);
    const steps: StepFigures[] = [];
    // Statistics of what the step before wrote, as autovacuum keeps them on a server where the
    // chain's steps are a minute or more apart (not timed; autovacuum is off on the bench server).
    // Without them the planner takes a table analyzed empty for empty: settlement's
    // unbalanced-hours check became a nested loop over the supply_balance rows per allocated
    // record (BENCH_SETTLEMENT_ANALYZE=0 shows it).
    let analyzeMs = 0;
    const step = async (
      name: StepName,
      range: { start: string; end: string },
      days: number,
      rows: number,
      onlyDue = false,
    ) => {
      if (ANALYZE) {
        const t0 = performance.now();
        await owner.exec('ANALYZE');
        analyzeMs += performance.now() - t0;
      }
      const figures = await runStep(owner, ctx, name, range, days, rows, onlyDue);
      steps.push(figures);
      return figures;
    };
    // During the month: each file checked as it arrives (the cebd-check job; here the first
    // CEBD_DAYS days' files, scaled to a day) ...
    const arrival = await step('cebd-preprocessing', { start, end: cebdEnd }, CEBD_DAYS, sizes!.cebd);
    // What arrives beside the records before the month is priced: supply and prices (not timed).
    started = performance.now();
    await generatePrices(owner, { start, end });
    await owner.exec('VACUUM ANALYZE cebd_record, time_series, time_series_value');
    const pricesMs = performance.now() - started;
    const floorBefore = await floor();
    // ... and each night the days before allocated (jobs/nightly-allocation.ts): here the month's
    // days before the last in one run per step, the same work per day as a night's run of one day.
    const countIn = async (table: 'cebd_record' | 'train_run', range: { start: string; end: string }) => {
      const where =
        table === 'cebd_record'
          ? `period_end > $1 AND period_end <= $2`
          : `operating_day >= ($1::timestamptz AT TIME ZONE '${ZONE}')::date AND operating_day < ($2::timestamptz AT TIME ZONE '${ZONE}')::date`;
      const [n] = await owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, [
        range.start,
        range.end,
      ]);
      return n!.n;
    };
    const before = { start, end: lastStart };
    const last = { start: lastStart, end };
    const nightly: StepFigures[] = [];
    for (const name of ALLOCATION) {
      const rows = await countIn(name === 'train-preprocessing' ? 'train_run' : 'cebd_record', before);
      nightly.push(await step(name, before, DAYS - 1, rows));
    }
    // Month end: the last day's file arrives and is checked (its time: a day of the check above);
    // the chain's runs over the month with onlyDue do the last day and skip the days allocated
    // (their time counted as is: 31 scales nothing); then price-and-supply and settlement, which a
    // person starts, over the month.
    const monthEnd: StepFigures[] = [];
    for (const name of ALLOCATION) {
      const rows = await countIn(name === 'train-preprocessing' ? 'train_run' : 'cebd_record', last);
      monthEnd.push(await step(name, { start, end }, MONTH_DAYS, rows, true));
    }
    // price-and-supply reads the allocation's hourly sums (migration 0380), not the records.
    const [allocated] = await owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM allocated_energy_hourly`);
    monthEnd.push(await step('price-and-supply', { start, end }, DAYS, allocated!.n));
    const [priced] = await owner.query<{ n: number }>(`SELECT count(*)::int AS n FROM priced_energy`);
    monthEnd.push(await step('settlement', { start, end }, DAYS, priced!.n));
    const floorAfter = await floor();
    // The floor of writing: the rows cebd-preprocessing wrote over its days, copied by one INSERT ...
    // SELECT into a table with the same columns and indexes (no row-level security, nothing computed):
    // what storing its output costs on this server, whatever the statement that computes it.
    await owner.exec('CREATE TABLE bench_write_floor (LIKE cebd_record INCLUDING DEFAULTS INCLUDING INDEXES)');
    await owner.exec('CHECKPOINT');
    started = performance.now();
    const [copied] = await owner.query<{ n: number }>(
      `WITH w AS (INSERT INTO bench_write_floor SELECT * FROM cebd_record
                   WHERE period_end > $1 AND period_end <= $2 RETURNING 1)
       SELECT count(*)::int AS n FROM w`,
      [start, cebdEnd],
    );
    const writeFloorMs = performance.now() - started;
    const loadAfter = loadavg()[0]!.toFixed(1);
    const floorMs = Math.min(floorBefore, floorAfter);

    printSteps(steps, records);
    const chainMs = steps.reduce((sum, s) => sum + monthMs(s), 0);
    const withoutCebd = chainMs - monthMs(arrival);
    const floorMonthMs = (floorMs * MONTH_DAYS) / DAYS;
    console.log(
      `floor (one aggregate over the ${count(records)} cebd_record rows): ${seconds(floorBefore, 2)} s before, ` +
        `${seconds(floorAfter, 2)} s after (${perS(records, floorMs)} records/s)` +
        (DAYS < MONTH_DAYS ? `; ${seconds(floorMonthMs)} s for ${MONTH_DAYS} days` : ''),
    );
    console.log(
      `ratio total/floor ${(chainMs / floorMonthMs).toFixed(1)}x (without cebd-preprocessing ${(withoutCebd / floorMonthMs).toFixed(1)}x); ` +
        `load ${loadBefore} -> ${loadAfter}; not counted: supply and prices generated in ${seconds(pricesMs, 0)} s, ` +
        (ANALYZE ? `ANALYZE before each step ${seconds(analyzeMs)} s in all` : 'no ANALYZE between the steps'),
    );
    const cebdStep = steps[0]!;
    console.log(
      `write floor (the ${count(copied!.n)} rows cebd-preprocessing wrote over ${CEBD_DAYS} days, one INSERT ... SELECT ` +
        `into a table with its indexes): ${seconds(writeFloorMs)} s = ${perS(copied!.n, writeFloorMs)} rows/s, ` +
        `${seconds((writeFloorMs * MONTH_DAYS) / CEBD_DAYS)} s for ${MONTH_DAYS} days; cebd-preprocessing ` +
        `${(cebdStep.ms / writeFloorMs).toFixed(1)}x that`,
    );
    return { units, records, runs: sizes!.runs, arrival, nightly, monthEnd, floorMs, writeFloorMs };
  } finally {
    await app?.close();
    await owner.close();
  }
}

/**
 * Runs one procedure over `period` as the `procedure-run` job does: a procedure result and its job
 * run (written as the owner, as the run route and the job runner would), then executeRun as
 * railwatt_app. Answers the step's figures with what it wrote and the events it recorded.
 */
async function runStep(
  owner: Database,
  ctx: ServiceContext,
  name: StepName,
  period: { start: string; end: string },
  days: number,
  rows: number,
  onlyDue: boolean,
): Promise<StepFigures> {
  const [result] = await owner.query<{ id: number }>(
    `INSERT INTO procedure_result (tenant, procedure_name, period_start, period_end, username, run_options)
     VALUES ($1, $2, $3, $4, 'bench', $5::jsonb) RETURNING id::int AS id`,
    [NORWAY, name, period.start, period.end, JSON.stringify(onlyDue ? { onlyDue: true } : {})],
  );
  const jobId = randomUUID();
  await owner.query(
    `INSERT INTO job_run (id, tenant, name, username, status) VALUES ($1, $2, 'procedure-run', 'bench', 'running')`,
    [jobId, NORWAY],
  );
  const handle = {
    id: jobId,
    attempt: 1,
    signal: new AbortController().signal,
    embedded: owner.kind === 'pglite',
    progress: async () => undefined,
  };
  const t0 = performance.now();
  await executeRun(ctx, result!.id, handle, { procedures: PROCEDURES, retryLimit: 0 });
  const ms = performance.now() - t0;
  const [state] = await owner.query<{ status: string; message: string | null }>(
    `SELECT status, message FROM procedure_result WHERE id = $1`,
    [result!.id],
  );
  if (state?.status !== 'success') {
    throw new Error(`${name} ended ${state?.status}: ${state?.message}`);
  }
  const events = await owner.query<{ code: string; incidents: number }>(
    `SELECT error_code AS code, sum(incidents)::int AS incidents FROM processing_event
      WHERE procedure_result_id = $1 GROUP BY 1 ORDER BY 1`,
    [result!.id],
  );
  const stepDef = STEPS.find((s) => s.name === name)!;
  return {
    name,
    onlyDue,
    days,
    ms,
    rows,
    input: stepDef.input,
    written: await writtenBy(owner, name, result!.id, period),
    events: events.map((e) => `${e.code} ${count(e.incidents)}`).join(', ') || 'none',
  };
}

/** What a step wrote, counted after it (not timed). */
async function writtenBy(
  owner: Database,
  name: StepName,
  resultId: number,
  period: { start: string; end: string },
): Promise<string> {
  const one = async (text: string, params: unknown[] = []) =>
    count((await owner.query<{ n: number }>(text, params))[0]?.n ?? 0);
  const category = async (c: string) => {
    const [r] = await owner.query<{ records: number; sums: number }>(
      `SELECT coalesce(sum(records), 0)::int AS records, count(*)::int AS sums FROM allocated_energy_hourly
        WHERE category = $1`,
      [c],
    );
    return `${count(r?.records ?? 0)} ${c} records in ${count(r?.sums ?? 0)} sums`;
  };
  switch (name) {
    case 'cebd-preprocessing':
      return `${await one(
        `SELECT count(*)::int AS n FROM cebd_record
          WHERE period_end > $1 AND period_end <= $2 AND codes = '{}' AND grid_area_uuid IS NOT NULL`,
        [period.start, period.end],
      )} valid and placed`;
    case 'train-preprocessing':
      return `${await one(`SELECT count(*)::int AS n FROM train_run_check WHERE procedure_result_id = $1`, [resultId])} checks`;
    case 'combine':
      return category('train-run');
    case 'shunting-and-stabling':
      return category('shunting-and-stabling');
    case 'energy-outside-train-run':
      return category('energy-outside-train-run');
    case 'price-and-supply':
      return `${await one(`SELECT count(*)::int AS n FROM priced_energy`)} priced, ${await one(`SELECT count(*)::int AS n FROM supply_balance`)} balances`;
    case 'settlement':
      return `${await one(`SELECT count(*)::int AS n FROM settlement_line WHERE procedure_result_id = $1`, [resultId])} lines`;
  }
}

function printSteps(steps: readonly StepFigures[], records: number): void {
  const header = [
    pad('step', 30),
    pad('days', 5),
    padStart('rows read', 20),
    padStart('time s', 8),
    padStart('rows/s', 11),
    padStart(`${MONTH_DAYS} days s`, 10),
    '  written',
  ].join('');
  console.log(header);
  let total = 0;
  for (const s of steps) {
    total += monthMs(s);
    console.log(
      [
        pad(`${s.name}${s.onlyDue ? ' (due)' : ''}`, 30),
        pad(String(s.days), 5),
        padStart(`${count(s.rows)} ${s.input}`, 20),
        padStart(seconds(s.ms), 8),
        padStart(perS(s.rows, s.ms), 11),
        padStart(seconds(monthMs(s)), 10),
        `  ${s.written}`,
      ].join(''),
    );
  }
  console.log(
    [pad('total', 35), padStart(`${count(records)} records`, 20), ''.padStart(19), padStart(seconds(total), 10)].join(
      '',
    ),
  );
  for (const s of steps) console.log(`  events of ${s.name}: ${s.events}`);
}

/**
 * A linear fit t = a + b x units per step through the two sizes, at 10,000 units: the month-end chain
 * (the last day's check, the allocation's runs with onlyDue, price-and-supply and settlement over the
 * month) and, beside it, what the month's days cost as they arrive (a day's check, a night's allocation).
 */
function printEstimate(small: Measurement, large: Measurement): void {
  const fit = (a: number, b: number) => {
    if (large.units === small.units) return (b * TARGET_UNITS) / large.units;
    const slope = (b - a) / (large.units - small.units);
    // A slope at or below zero is noise between two small times: scale the larger size instead.
    return slope <= 0 ? (b * TARGET_UNITS) / large.units : b + slope * (TARGET_UNITS - large.units);
  };
  const header = (what: string) => {
    console.log(`\n### estimate: ${what}, linear in units through ${count(small.units)} and ${count(large.units)}`);
    console.log(
      [
        pad('step', 30),
        padStart(`${count(small.units)} u s`, 12),
        padStart(`${count(large.units)} u s`, 12),
        padStart('exponent', 10),
        padStart(`${count(TARGET_UNITS)} u s`, 12),
      ].join(''),
    );
  };
  /** Prints one row per pair of steps (a, b: their ms at the two sizes) and answers the estimate. */
  const row = (label: string, a: number, b: number): number => {
    const estimate = fit(a, b);
    // How time grows with units between the two sizes (1 = linear).
    const exponent = Math.log(b / a) / Math.log(large.units / small.units);
    console.log(
      [
        pad(label, 30),
        padStart(seconds(a), 12),
        padStart(seconds(b), 12),
        padStart(Number.isFinite(exponent) ? exponent.toFixed(2) : '-', 10),
        padStart(seconds(estimate, 0), 12),
      ].join(''),
    );
    return estimate;
  };
  const perDay = (step: StepFigures) => step.ms / step.days;

  header(`a day of ${count(TARGET_UNITS)} units as it arrives (its files checked, then allocated the night after)`);
  let night = 0;
  const check = row('cebd-preprocessing (a day)', perDay(small.arrival), perDay(large.arrival));
  for (let i = 0; i < large.nightly.length; i++) {
    night += row(`${large.nightly[i]!.name} (a night)`, perDay(small.nightly[i]!), perDay(large.nightly[i]!));
  }
  console.log(
    `a day's files checked in ${seconds(check, 0)} s of work as they arrive; the night's allocation ${seconds(night, 0)} s ` +
      `(${(night / 1000 / 60).toFixed(1)} min of the night)`,
  );

  header(
    `month end (${MONTH_DAYS} days) of ${count(TARGET_UNITS)} units, from the last day's file stored to a settlement ready to approve`,
  );
  let total = row('cebd-preprocessing (last day)', perDay(small.arrival), perDay(large.arrival));
  for (let i = 0; i < large.monthEnd.length; i++) {
    const b = large.monthEnd[i]!;
    total += row(`${b.name}${b.onlyDue ? ' (due)' : ''}`, monthMs(small.monthEnd[i]!), monthMs(b));
  }
  const floor = fit((small.floorMs * MONTH_DAYS) / DAYS, (large.floorMs * MONTH_DAYS) / DAYS);
  const allocation = ALLOCATION.reduce(
    (sum, _, i) => sum + fit(monthMs(small.nightly[i]!), monthMs(large.nightly[i]!)),
    0,
  );
  const writeFloor = fit((small.writeFloorMs * MONTH_DAYS) / CEBD_DAYS, (large.writeFloorMs * MONTH_DAYS) / CEBD_DAYS);
  console.log(
    `floor at ${count(TARGET_UNITS)} units (one aggregate over the month's records): ${seconds(floor, 0)} s; the month end ` +
      `${(total / 1000 / 60).toFixed(1)} min ${total / 1000 < GOAL_S ? 'meets' : 'misses'} the goal of < ${GOAL_S / 60} minutes; ` +
      `allocating the whole month at its end instead would add ${(allocation / 1000 / 60).toFixed(1)} min`,
  );
  console.log(
    `write floor at ${count(TARGET_UNITS)} units: storing cebd-preprocessing's rows of the month alone, one stream, ` +
      `${(writeFloor / 1000 / 60).toFixed(1)} min`,
  );
  console.log(
    'a lower bound where a step grows faster than linearly: an exponent above 1, a fixed cost per day (JIT) hiding ' +
      `a quadratic part at these sizes, or work per day that grows with the rows of the days before` +
      (DAYS < MONTH_DAYS ? ` (${DAYS} days ran, scaled to ${MONTH_DAYS})` : ''),
  );
  // The last line, read by people and scripts alike (issue 19 "Measure").
  console.log(
    `month-end estimate ${TARGET_UNITS} units: ${(total / 1000 / 60).toFixed(1)} min (floor ${(floor / 1000).toFixed(0)} s)`,
  );
}

/** The hour index of a period (its start, UTC hours since the epoch), the grid area its unit is in then. */
const gridOf = (p: string, grids: number) =>
  `((u.n + extract(epoch FROM ${p} - interval '5 minutes')::bigint / 3600) % ${grids})`;
/** The record's counter: its energies and quality follow from it, the same in both generators. */
const x = (p: string) => `(extract(epoch FROM ${p})::bigint / 300 + u.n)`;
const ENERGIES = (p: string) => ({
  ac: `(${x(p)} % 50)::numeric`,
  ar: `(CASE WHEN ${x(p)} % 10 = 0 THEN 3 ELSE 0 END)::numeric`,
  rc: `((${x(p)} % 20)::numeric / 4)`,
  rr: `0::numeric`,
  quality: `(CASE WHEN ${x(p)} % 100 = 0 THEN 61 ELSE 127 END)::smallint`,
});

/**
 * The month's data as the owning user: units and consumption points (entity and entity_segment;
 * entity_latest follows by its triggers), five RUs and a vehicle keeper, positions inside the grid
 * areas, train runs, the CEBD records of the first CEBD_DAYS days as the intake stores them (not
 * checked; a data-log entry per day) and the other days' records as cebd-preprocessing leaves them.
 */
async function generate(
  database: Database,
  units: number,
  period: { start: string; cebdEnd: string; end: string },
): Promise<void> {
  const t = NORWAY;
  const { start, cebdEnd, end } = period;
  await database.exec(`
    CREATE UNLOGGED TABLE bench_unit AS
      SELECT n, gen_random_uuid() AS unit, gen_random_uuid() AS cp, '9476' || lpad(n::text, 8, '0') AS evn
        FROM generate_series(1, ${units}) AS n;
    -- k 0..4 railway undertakings, 5 the vehicle keeper owning every unit.
    CREATE UNLOGGED TABLE bench_org AS SELECT k, gen_random_uuid() AS org FROM generate_series(0, 5) AS g(k);
    CREATE UNLOGGED TABLE bench_other AS SELECT gen_random_uuid() AS tc;
    INSERT INTO entity (uuid, tenant, type, created_by)
      SELECT unit, '${t}'::uuid, 'tractionunit', 'bench' FROM bench_unit
      UNION ALL SELECT cp, '${t}'::uuid, 'consumptionpoint', 'bench' FROM bench_unit
      UNION ALL SELECT org, '${t}'::uuid, 'organisation', 'bench' FROM bench_org
      UNION ALL SELECT tc, '${t}'::uuid, 'trafficcategory', 'bench' FROM bench_other;
    INSERT INTO entity_segment (entity_uuid, tenant, type, valid, name, attributes, last_modified_by)
      SELECT unit, '${t}'::uuid, 'tractionunit', tstzrange('2020-01-01', NULL), 'Bench unit ' || n,
             jsonb_build_object('evn', evn, 'owner', (SELECT org FROM bench_org WHERE k = 5)::text), 'bench'
        FROM bench_unit
      UNION ALL
      SELECT cp, '${t}'::uuid, 'consumptionpoint', tstzrange('2020-01-01', NULL), 'Bench CP ' || n,
             jsonb_build_object('cpid', 'BENCH-' || n, 'tractionUnitRef', unit::text, 'emsType', 'EN50463-EMS'), 'bench'
        FROM bench_unit
      UNION ALL
      SELECT org, '${t}'::uuid, 'organisation', tstzrange('2020-01-01', NULL),
             CASE WHEN k = 5 THEN 'Bench vehicle keeper' ELSE 'Bench RU ' || k END,
             jsonb_build_object('orgId', CASE WHEN k = 5 THEN 'BENCHVK' ELSE 'BENCHRU' || k END), 'bench'
        FROM bench_org
      UNION ALL
      SELECT tc, '${t}'::uuid, 'trafficcategory', tstzrange('2020-01-01', NULL), 'Bench freight', '{}'::jsonb, 'bench'
        FROM bench_other;

    -- Positions: random points inside each grid area and in no other (cebd-preprocessing places a
    -- record in the first grid area by name that holds it; these hold one, so the generated days
    -- name the area cebd-preprocessing finds).
    CREATE UNLOGGED TABLE bench_grid AS
      SELECT (row_number() OVER (ORDER BY s.name, s.entity_uuid) - 1)::int AS g, s.entity_uuid AS grid,
             rw_uuid(s.attributes ->> 'priceAreaRef') AS price, s.attributes -> 'geometry' AS geom,
             rw_geometry_bbox(s.attributes -> 'geometry') AS bb
        FROM entity_segment s
       WHERE s.tenant = '${t}'::uuid AND s.type = 'gridarea' AND s.superseded_at IS NULL
         AND s.valid @> '${start}'::timestamptz AND s.valid @> '${end}'::timestamptz;
    CREATE UNLOGGED TABLE bench_point AS
      SELECT g, grid, price, (row_number() OVER (PARTITION BY g ORDER BY i) - 1)::int AS k, lon, lat
        FROM (SELECT g.g, g.grid, g.price, g.geom, c.i,
                     g.bb[1] + (g.bb[3] - g.bb[1]) * ((c.i * 0.6180339887) % 1) AS lon,
                     g.bb[2] + (g.bb[4] - g.bb[2]) * ((c.i * 0.7548776662 + 0.5) % 1) AS lat
                FROM bench_grid g CROSS JOIN generate_series(1, 3000) AS c(i)) c
       WHERE rw_point_in_geometry(c.geom, c.lon, c.lat)
         AND NOT EXISTS (SELECT 1 FROM bench_grid o
                          WHERE o.g <> c.g AND c.lon BETWEEN o.bb[1] AND o.bb[3] AND c.lat BETWEEN o.bb[2] AND o.bb[4]
                            AND rw_point_in_geometry(o.geom, c.lon, c.lat));
    DELETE FROM bench_point WHERE k >= ${POINTS_PER_GRID};

    INSERT INTO data_log (tenant, message_type, message_status) VALUES ('${t}'::uuid, 'TRAIN_RUN_INPUT', 'OK');
    CREATE UNLOGGED TABLE bench_day AS
      SELECT d::date AS day, (d::timestamp AT TIME ZONE '${ZONE}') AS day_start
        FROM generate_series('${FIRST_DAY}'::date, ('${FIRST_DAY}'::date + ${DAYS - 1}), interval '1 day') AS d;
    INSERT INTO train_run (tenant, train_number, operating_day, ru_uuid, traffic_category_uuid, departure, arrival,
                           gross_tonne_km, data_log_id, created_at)
      SELECT '${t}'::uuid, (u.n * 10 + j.k)::text, d.day, r.org, o.tc,
             d.day_start + interval '4 hours' + j.k * interval '3 hours' + (u.n % 12) * interval '5 minutes',
             d.day_start + interval '6 hours 15 minutes' + j.k * interval '3 hours' + (u.n % 12) * interval '5 minutes',
             30000, (SELECT max(id) FROM data_log), d.day_start + interval '1 day'
        FROM bench_unit u CROSS JOIN bench_day d CROSS JOIN generate_series(0, 5) AS j(k)
        JOIN bench_org r ON r.k = u.n % 5 CROSS JOIN bench_other o;
    INSERT INTO train_run_vehicle (train_run_id, tenant, position, evn, traction_unit_uuid, gross_weight)
      SELECT r.id, r.tenant, 1, u.evn, u.unit, 84
        FROM train_run r JOIN bench_unit u ON u.n = r.train_number::int / 10
       WHERE r.tenant = '${t}'::uuid;
  `);
  const [{ grids, short }] = (await database.query<{ grids: number; short: number }>(
    `SELECT (SELECT count(*) FROM bench_grid)::int AS grids,
            (SELECT count(*) FROM bench_grid g WHERE (SELECT count(*) FROM bench_point p WHERE p.g = g.g) < ${POINTS_PER_GRID})::int AS short`,
  )) as [{ grids: number; short: number }];
  if (grids === 0 || short > 0) throw new Error(`${short} of ${grids} grid areas without ${POINTS_PER_GRID} positions`);

  // The CEBD of the first days, as the intake stores a day file: four series per point (the
  // catalogue the data log and the export name) and one cebd_record row per record, not checked.
  const series = Object.values(CEBD_SERIES);
  const e = ENERGIES('p');
  await database.query(`SELECT rw_ensure_cebd_record_months($1::timestamptz, $2::timestamptz)`, [start, end]);
  await database.exec(`
    INSERT INTO time_series (tenant, type_name, entity_uuid, entity_kind, identifier, resolution, unit)
      SELECT '${t}'::uuid, s.type_name, u.cp, 'consumptionpoint', 'BENCH-' || u.n, 'PT5M',
             CASE WHEN s.type_name LIKE '%reactive%' THEN 'kvarh' ELSE 'kWh' END
        FROM bench_unit u CROSS JOIN unnest(ARRAY['${series.join("','")}']) AS s(type_name);
  `);
  const cebdDays = await database.query<{ day_start: string; day_end: string }>(
    `SELECT rw_iso(d) AS day_start, rw_iso(least(d + interval '1 day', $2::timestamptz)) AS day_end
       FROM generate_series($1::timestamptz, $2::timestamptz - interval '1 second', interval '1 day') AS d`,
    [start, cebdEnd],
  );
  for (const day of cebdDays) {
    const [log] = await database.query<{ id: number }>(
      `INSERT INTO data_log (tenant, message_type, message_status, file_name) VALUES ($1, 'CEBD_IMPORT', 'OK', $2)
       RETURNING id::int AS id`,
      [t, `bench-cebd-${day.day_start.slice(0, 10)}.xml`],
    );
    const periods = `generate_series('${day.day_start}'::timestamptz + interval '5 minutes', '${day.day_end}'::timestamptz, interval '5 minutes') AS p`;
    await database.exec(`
      INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated,
                               reactive_consumed, reactive_regenerated, quality, lat, lon, traction_system, data_log_id)
        SELECT '${t}'::uuid, u.cp, p, ${e.ac}, ${e.ar}, ${e.rc}, ${e.rr}, ${e.quality}, b.lat, b.lon, '01', ${log!.id}
          FROM ${periods} CROSS JOIN bench_unit u
          JOIN bench_point b ON b.g = ${gridOf('p', grids)} AND b.k = u.n % ${POINTS_PER_GRID};
    `);
  }

  // The other days as cebd-preprocessing would have written them, one day at a time (as its chunks
  // do, so the table's rows lie in day order).
  const restDays = await database.query<{ day_start: string; day_end: string }>(
    `SELECT rw_iso(d) AS day_start, rw_iso(least(d + interval '1 day', $2::timestamptz)) AS day_end
       FROM generate_series($1::timestamptz, $2::timestamptz - interval '1 second', interval '1 day') AS d`,
    [cebdEnd, end],
  );
  for (const day of restDays) {
    const [log] = await database.query<{ id: number }>(
      `INSERT INTO data_log (tenant, message_type, message_status, file_name) VALUES ($1, 'CEBD_IMPORT', 'OK', $2)
       RETURNING id::int AS id`,
      [t, `bench-cebd-${day.day_start.slice(0, 10)}.xml`],
    );
    await database.exec(`
      INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, traction_unit_uuid, grid_area_uuid,
                               price_area_uuid, active_consumed, active_regenerated, reactive_consumed,
                               reactive_regenerated, quality, lat, lon, traction_system, codes, checked_at, data_log_id)
        SELECT '${t}'::uuid, u.cp, p, u.unit, b.grid, b.price, ${e.ac}, ${e.ar}, ${e.rc}, ${e.rr}, ${e.quality},
               b.lat, b.lon, '01', '{}', now(), ${log!.id}
          FROM generate_series('${day.day_start}'::timestamptz + interval '5 minutes', '${day.day_end}'::timestamptz,
                               interval '5 minutes') AS p
         CROSS JOIN bench_unit u
          JOIN bench_point b ON b.g = ${gridOf('p', grids)} AND b.k = u.n % ${POINTS_PER_GRID};
    `);
  }
}

/**
 * Supply and prices for the period's hours, as the owning user: per grid area and hour the metered
 * energy of its records plus 3-6 % losses, shared between the grid area's supply metering points
 * (supply_energy, PT1H); a spot price per price area (EUR/MWh, a daily curve) and the NOK rate on
 * the settlement area (currency_exchange_rate).
 */
async function generatePrices(database: Database, period: { start: string; end: string }): Promise<void> {
  const t = NORWAY;
  const { start, end } = period;
  await database.exec(`
    CREATE UNLOGGED TABLE bench_smp AS
      SELECT l.entity_uuid AS smp, l.name, rw_uuid(l.attributes ->> 'gridAreaRef') AS grid,
             count(*) OVER (PARTITION BY l.attributes ->> 'gridAreaRef') AS per_grid
        FROM entity_latest l
       WHERE l.tenant = '${t}'::uuid AND l.type = 'supplymeteringpoint' AND l.attributes ->> 'gridAreaRef' IS NOT NULL;
    INSERT INTO time_series (tenant, type_name, entity_uuid, entity_kind, identifier, resolution, unit)
      SELECT '${t}'::uuid, 'supply_energy', smp, 'supplymeteringpoint', name, 'PT1H', 'kWh' FROM bench_smp
      UNION ALL
      SELECT '${t}'::uuid, 'spot_price', l.entity_uuid, 'pricearea', l.name, 'PT1H', 'EUR/MWh'
        FROM entity_latest l WHERE l.tenant = '${t}'::uuid AND l.type = 'pricearea'
      UNION ALL
      SELECT '${t}'::uuid, 'currency_exchange_rate', l.entity_uuid, 'settlementarea', l.name, 'PT1H', 'NOK/EUR'
        FROM entity_latest l WHERE l.tenant = '${t}'::uuid AND l.type = 'settlementarea';
    INSERT INTO time_series_value (tenant, series_id, start_time, value, quality)
      SELECT '${t}'::uuid, s.id, h.hour, round(h.kwh / m.per_grid, 3), 127
        FROM (SELECT grid_area_uuid AS grid, date_trunc('hour', period_end - interval '1 microsecond', 'UTC') AS hour,
                     sum(active_consumed - active_regenerated) * (1.03 + 0.03 * random())::numeric AS kwh
                FROM cebd_record
               WHERE tenant = '${t}'::uuid AND period_end > '${start}'::timestamptz AND period_end <= '${end}'::timestamptz
                 AND grid_area_uuid IS NOT NULL
               GROUP BY 1, 2) h
        JOIN bench_smp m ON m.grid = h.grid
        JOIN time_series s ON s.tenant = '${t}'::uuid AND s.type_name = 'supply_energy' AND s.entity_uuid = m.smp;
    INSERT INTO time_series_value (tenant, series_id, start_time, value, quality)
      SELECT '${t}'::uuid, s.id, h,
             CASE s.type_name
               WHEN 'spot_price' THEN round((45 + 25 * sin(2 * pi() * extract(hour FROM h AT TIME ZONE '${ZONE}') / 24)
                                             + 4 * (dense_rank() OVER (PARTITION BY s.type_name ORDER BY s.id)))::numeric, 2)
               ELSE 11.5 + round((0.2 * sin(extract(epoch FROM h) / 86400))::numeric, 4) END,
             127
        FROM time_series s
       CROSS JOIN generate_series('${start}'::timestamptz, '${end}'::timestamptz - interval '1 hour', interval '1 hour') AS h
       WHERE s.tenant = '${t}'::uuid AND s.type_name IN ('spot_price', 'currency_exchange_rate');
  `);
}

if (process.argv[1]?.endsWith('settlement.ts')) await benchSettlement();
