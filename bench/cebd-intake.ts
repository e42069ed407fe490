// CEBD intake end to end (issue 8 item 11, issue 19): parse, validate and store a day file of
// ~725,000 records (2,520 consumption points x 288 five-minute periods, one cebd_record row each) and
// smaller ones (other days, so their records are new), each from a file read stream through
// importParsedStream as railwatt_app in one tenant transaction, then check the day file's records
// (cebd-preprocessing over the file's day and consumption points, as the arrival check runs it:
// placement in the seeded grid and price areas and codes, written onto the same rows), on a
// throwaway database on the real PostgreSQL server (BENCH_DATABASE_URL overrides it). Beside it,
// the floor: the record rows the intake stored (its columns), copied out and loaded with raw COPY
// FROM STDIN into a table of the same shape (LIKE cebd_record, its key and indexes) by the owning
// user (railwatt_app cannot COPY into a table under row-level security: PostgreSQL refuses COPY
// FROM there). Prints records/s of both, the ratio stored / COPY and stored-and-checked / COPY
// (goal: at least 40 %), the peak RSS and heap over the start per file size (goal: not growing
// with the file), and the CPU seconds of this process and of the server backends: on a shared
// machine the wall clock also measures the neighbours.
import { createReadStream, createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Database } from '../apps/server/src/db/client.js';
import { tenantExecutor } from '../apps/server/src/db/tenant.js';
import { cebdFormat } from '../apps/server/src/formats/cebd/cebd-format.js';
import { cebdXmlStream, dayFileOptions } from '../apps/server/src/formats/cebd/generate.js';
import {
  cebdFileScope,
  preprocessCebd,
  type CebdPreprocessingResult,
} from '../apps/server/src/modules/processing/cebd-preprocessing.js';
import { importParsedStream, type IntakeResult } from '../apps/server/src/modules/timeseries/intake.js';
import { areaUuid } from '../apps/server/src/seed/areas.js';
import { seedFleetData } from '../apps/server/src/seed/fleet.js';
import { seedDemo } from '../apps/server/src/seed/index.js';
import { serviceContext } from '../apps/server/src/test/context.js';
import { openTestDatabase } from '../apps/server/src/test/database.js';
import { ADMIN_ACTOR } from '../apps/server/src/test/records.js';

/** BENCH_CEBD_POINTS scales the files down (e.g. for a CPU profile). */
const DAY_POINTS = Number(process.env.BENCH_CEBD_POINTS ?? 2_520);
/** 1.2 consumption points per seeded unit (every fifth unit has two): 2,100 units give 2,520. */
const UNITS = 2_100;
const GOAL_RATIO = 0.4;
const MB = 1024 * 1024;
const NORWAY = areaUuid('norway');
/** The columns the intake writes (cebd-preprocessing's are the check's, measured on its own). */
const RECORD_COLUMNS =
  'tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated, reactive_consumed, ' +
  'reactive_regenerated, quality, lat, lon, traction_system, data_log_id, stored_at';

const fmt = (n: number) => Math.round(n).toLocaleString('en');

/** CPU seconds (user + system) of processes by pid, from /proc (the server runs on this machine). */
function cpuOf(pids: readonly number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // Not on this machine, or gone: not counted.
    }
  }
  return ticks;
}

/** The CPU the server's backends of one database spend from now to `stop()`. */
async function serverCpu(admin: pg.Client, datname: string): Promise<{ stop(): Promise<number> }> {
  const pids = async () =>
    (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [datname])).rows.map(
      (r) => r.pid,
    );
  const before = cpuOf(await pids());
  return {
    async stop() {
      let seconds = 0;
      for (const [pid, now] of cpuOf(await pids())) seconds += now - (before.get(pid) ?? 0);
      return seconds;
    },
  };
}

interface Measured<T> {
  result: T;
  ms: number;
  cpuMs: number;
  serverCpuS: number;
  peakRss: number;
  peakHeap: number;
  /** Heap used after a full GC at the end, over the start: what the run kept. */
  retainedHeap: number;
}

/** Runs `work`, sampling RSS and heap every 50 ms (peaks over the start), wall clock and CPU. */
async function measure<T>(admin: pg.Client, datname: string, work: () => Promise<T>): Promise<Measured<T>> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.memoryUsage();
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss - start.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed - start.heapUsed);
  };
  const timer = setInterval(sample, 50);
  const server = await serverCpu(admin, datname);
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    sample();
    const serverCpuS = await server.stop();
    (globalThis as { gc?: () => void }).gc?.();
    const retainedHeap = process.memoryUsage().heapUsed - start.heapUsed;
    return { result, ms, cpuMs: (used.user + used.system) / 1000, serverCpuS, peakRss, peakHeap, retainedHeap };
  } finally {
    clearInterval(timer);
  }
}

const dayRange = (day: string) => ({
  from: `${day}T00:00:00Z`,
  to: new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString(),
});

export async function benchCebdIntake(): Promise<void> {
  console.log('\n## CEBD intake end to end (parse, validate, store) against raw COPY');
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const previous = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = url;
  const database: Database = await openTestDatabase().finally(() => {
    if (previous === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = previous;
  });
  const dir = mkdtempSync(join(tmpdir(), 'railwatt-cebd-intake-'));
  // The owning user (a superuser): COPY for the floor, EXPLAIN, and the server's CPU per backend.
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const datname = (await admin.query<{ d: string }>('SELECT current_database() AS d')).rows[0]!.d;
    const seedStarted = performance.now();
    await seedDemo(database, { only: ['areas', 'users'] });
    await seedFleetData(database, { unitsPerCountry: UNITS, countries: ['norway'] });
    // Grid and price areas with their polygons, EMS types: what the check places and validates by.
    await seedDemo(database, { only: ['infrastructure'] });
    await database.exec('VACUUM ANALYZE');
    const cpids = (
      await database.query<{ cpid: string }>(
        `SELECT attributes->>'cpid' AS cpid FROM entity_latest
          WHERE tenant = $1 AND type = 'consumptionpoint' ORDER BY 1 LIMIT ${DAY_POINTS}`,
        [NORWAY],
      )
    ).map((r) => r.cpid);
    console.log(
      `seeded ${UNITS} Norwegian traction units (${cpids.length} consumption points used) on PostgreSQL in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
    );

    const fileOf = async (name: string, points: number, day: string, seed: number) => {
      const options = dayFileOptions(points, seed);
      options.points.forEach((p, i) => {
        p.cpid = cpids[i % cpids.length]!;
        p.start = `${day}T00:00:00Z`;
      });
      const path = join(dir, `${name}.xml`);
      await pipeline(cebdXmlStream(options), createWriteStream(path));
      return { name, path, day, records: points * 288 };
    };
    const warmup = await fileOf('warm-up', 20, '2026-09-30', 3);
    const files = [
      await fileOf('tenth of a day', Math.round(DAY_POINTS / 10), '2026-10-02', 2),
      // A middle size: whether the peak follows the file or stays where the garbage collector settles.
      await fileOf('half a day', Math.round(DAY_POINTS / 2), '2026-10-03', 4),
      await fileOf('day', DAY_POINTS, '2026-10-01', 1),
    ];

    await database.query(
      `INSERT INTO data_log (id, tenant, message_type, message_status)
       SELECT 1000000 + k, $1, 'CEBD_IMPORT', 'RUNNING' FROM generate_series(1, $2::int) AS k`,
      [NORWAY, files.length + 1],
    );
    // As the server runs: railwatt_app under row-level security, one tenant transaction per file.
    await database.useAppRole();
    const ctx = serviceContext(tenantExecutor(database, NORWAY), NORWAY, ADMIN_ACTOR, {
      timeZone: 'Europe/Oslo',
      kind: 'norway',
      name: 'Norway',
    });
    let nextLog = 1;
    const intake = async (path: string): Promise<IntakeResult> => {
      // A data-log entry per file (made before, as the owner), as an upload has: the check finds the
      // file's records by it.
      const entry = { id: 1_000_000 + nextLog++ };
      const result = await importParsedStream(ctx, cebdFormat, createReadStream(path), {
        dataLogId: entry.id,
      });
      if (result.status !== 'OK') throw new Error(`intake refused the file: ${result.text.slice(0, 500)}`);
      return result;
    };
    await intake(warmup.path);

    const runs: { file: (typeof files)[number]; run: Measured<IntakeResult> }[] = [];
    for (const file of files) {
      const run = await measure(admin, datname, () => intake(file.path));
      runs.push({ file, run });
      const mb = statSync(file.path).size / MB;
      console.log(
        `intake ${file.name.padEnd(15)} ${fmt(file.records)} records, ${mb.toFixed(0)} MB: stored in ${(run.ms / 1000).toFixed(1)} s = ` +
          `${fmt((file.records / run.ms) * 1000)} records/s; CPU node ${(run.cpuMs / 1000).toFixed(1)} s, server ${run.serverCpuS.toFixed(1)} s; ` +
          `peak over start: RSS +${(run.peakRss / MB).toFixed(0)} MB, heap used +${(run.peakHeap / MB).toFixed(0)} MB (after GC +${(run.retainedHeap / MB).toFixed(0)} MB)`,
      );
    }

    // How much of the intake's own CPU is the parser's: the day file parsed alone, nothing stored.
    const day = runs[runs.length - 1]!;
    const parseOnly = await measure(admin, datname, async () => {
      let records = 0;
      for await (const item of cebdFormat.parse(createReadStream(day.file.path), { timeZone: 'Europe/Oslo' })) {
        if (item.kind === 'cebd') records += item.block.records.length;
      }
      return records;
    });
    console.log(
      `  of which parsing alone (day file, nothing stored): ${(parseOnly.ms / 1000).toFixed(1)} s, CPU ${(parseOnly.cpuMs / 1000).toFixed(1)} s`,
    );

    // The check of the day file, as the arrival check runs it: the file's span and points, then
    // cebd-preprocessing over them (placement, codes, onto the same rows).
    const dayLog = 1_000_000 + nextLog - 1;
    const check = await measure(admin, datname, async () => {
      const scope = await cebdFileScope(ctx, dayLog);
      if (!scope) throw new Error('the day file holds no records');
      return preprocessCebd(ctx, scope, { consumptionPoints: scope.consumptionPoints });
    });
    const checked: CebdPreprocessingResult = check.result;
    console.log(
      `check of the day file (cebd-preprocessing, its points and span): ${fmt(checked.records)} records in ${(check.ms / 1000).toFixed(1)} s = ` +
        `${fmt((checked.records / check.ms) * 1000)} records/s, ${fmt(checked.placed)} placed, codes ${JSON.stringify(checked.byCode)}; ` +
        `CPU server ${check.serverCpuS.toFixed(1)} s`,
    );

    // The floor: the day file's record rows (the intake's columns) out to a file and COPY'd into a
    // table of the same shape (its key and indexes), one transaction.
    const { from, to } = dayRange(day.file.day);
    const where = `period_end > '${from}' AND period_end <= '${to}'`;
    const rowsPath = join(dir, 'rows.copy');
    await pipeline(
      admin.query(copyTo(`COPY (SELECT ${RECORD_COLUMNS} FROM cebd_record WHERE ${where}) TO STDOUT`)),
      createWriteStream(rowsPath),
    );
    await admin.query(
      'CREATE TABLE bench_cebd_copy (LIKE cebd_record INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING INDEXES)',
    );
    const copy = await measure(admin, datname, async () => {
      await admin.query('BEGIN');
      await pipeline(
        createReadStream(rowsPath),
        admin.query(copyFrom(`COPY bench_cebd_copy (${RECORD_COLUMNS}) FROM STDIN`)),
      );
      await admin.query('COMMIT');
    });
    const copied = Number((await admin.query<{ n: string }>('SELECT count(*) AS n FROM bench_cebd_copy')).rows[0]!.n);
    await admin.query('DROP TABLE bench_cebd_copy');
    const copyRate = (copied / copy.ms) * 1000;
    const storeRate = (day.file.records / day.run.ms) * 1000;
    const bothRate = (day.file.records / (day.run.ms + check.ms)) * 1000;
    console.log(
      `raw COPY FROM STDIN of the same ${fmt(copied)} record rows (${(statSync(rowsPath).size / MB).toFixed(0)} MB of COPY text) into a table like cebd_record, one transaction: ` +
        `${(copy.ms / 1000).toFixed(1)} s = ${fmt(copyRate)} rows/s; CPU server ${copy.serverCpuS.toFixed(1)} s`,
    );
    const ratio = bothRate / copyRate;
    console.log(
      `stored / COPY = ${((storeRate / copyRate) * 100).toFixed(0)} %; stored and checked / COPY = ${(ratio * 100).toFixed(0)} % ` +
        `(wall clock; goal >= ${GOAL_RATIO * 100} %: ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'}); ` +
        `server CPU per record: intake ${((day.run.serverCpuS / copied) * 1e6).toFixed(2)} us, check ${((check.serverCpuS / copied) * 1e6).toFixed(2)} us, ` +
        `COPY ${((copy.serverCpuS / copied) * 1e6).toFixed(2)} us`,
    );
    console.log(
      `peak memory over the start (RSS / heap used / heap kept after a full GC): ${runs
        .map(
          ({ file, run }) =>
            `${file.name} +${(run.peakRss / MB).toFixed(0)} / +${(run.peakHeap / MB).toFixed(0)} / +${(run.retainedHeap / MB).toFixed(0)} MB`,
        )
        .join('; ')}`,
    );

    // The hot statement as the app runs it: railwatt_app under the policies of the partitioned table.
    await explainAsApp(database, NORWAY);
  } finally {
    await admin.end();
    for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true });
    rmSync(dir, { recursive: true, force: true });
    database.pool?.on('error', () => undefined);
    await database.close();
  }
}

/** EXPLAIN (ANALYZE) of cebd_record's hot statements as railwatt_app, rolled back. */
async function explainAsApp(database: Database, tenant: string): Promise<void> {
  const client = await database.pool!.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT set_config('railwatt.tenant', $1, true)`, [tenant]);
    const cps = (
      await client.query<{ cp: string }>(
        `SELECT entity_uuid AS cp FROM entity_latest WHERE tenant = $1 AND type = 'consumptionpoint' ORDER BY 1 LIMIT 250`,
        [tenant],
      )
    ).rows.map((r) => r.cp);
    const explain = async (label: string, text: string, params: unknown[]) => {
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${text}`,
        params,
      );
      console.log(`EXPLAIN as railwatt_app, ${label}:`);
      for (const line of plan.rows) console.log(`  ${line['QUERY PLAN']}`);
    };
    await explain(
      'existence check of a batch (2026-10-05, no records yet)',
      `SELECT EXISTS (SELECT 1 FROM cebd_record WHERE tenant = $1
          AND period_end BETWEEN '2026-10-05T00:05:00Z' AND '2026-10-06T00:00:00Z'
          AND consumption_point_uuid = ANY($2::uuid[])) AS any`,
      [tenant, `{${cps.join(',')}}`],
    );
    await explain(
      'the records of a chunk (a day of the day file), as cebd-preprocessing reads them',
      `SELECT count(*) FROM cebd_record WHERE tenant = $1
          AND period_end > '2026-10-01T00:00:00Z' AND period_end <= '2026-10-02T00:00:00Z'`,
      [tenant],
    );
    await explain(
      'the latest record of a consumption point (dashboard delivery)',
      `SELECT max(period_end) FROM cebd_record WHERE tenant = $1 AND consumption_point_uuid = $2`,
      [tenant, cps[0]],
    );
    await explain(
      'the records of one file (statistics, the span of a file)',
      `SELECT count(*) FROM cebd_record WHERE tenant = $1 AND data_log_id = $2`,
      [tenant, 1_000_001],
    );
    const epochs = cps.flatMap(() =>
      Array.from({ length: 288 }, (_, i) => Date.parse('2026-10-05T00:05:00Z') / 1000 + i * 300),
    );
    const points = cps.flatMap((cp) => Array.from({ length: 288 }, () => cp));
    await explain(
      `plain insert of a batch of ${points.length} records (as store.ts storeBatch)`,
      `INSERT INTO cebd_record (tenant, consumption_point_uuid, period_end, active_consumed, active_regenerated,
                                reactive_consumed, reactive_regenerated, quality, lat, lon, traction_system, data_log_id)
       SELECT $1::uuid, c, to_timestamp(e), 1.5, 0, 0.5, 0, 127, 59.9, 10.7, '02', NULL
         FROM unnest($2::uuid[], $3::float8[]) AS i(c, e)`,
      [tenant, `{${points.join(',')}}`, `{${epochs.join(',')}}`],
    );
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCebdIntake();
