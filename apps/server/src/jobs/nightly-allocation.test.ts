import type { ProcedureName } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantExecutor } from '../db/tenant.js';
import type { ChunkScope, ProcedureDeclaration } from '../modules/processing/define-procedure.js';
import { markDaysDue } from '../modules/processing/due-days.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { waitForIdle } from '../test/jobs.js';
import { withProcedures } from '../test/procedures.js';
import { startNightlyAllocation } from './nightly-allocation.js';
import { procedureFollowUpJob } from './procedure-follow-up.js';

const RUNNER = 'settlement-area-responsible';
/** Area days of March 2024 in Oslo (UTC+1). */
const day = (n: number) => `2024-03-${String(n).padStart(2, '0')}`;
const start = (n: number) => new Date(Date.UTC(2024, 2, n) - 3_600_000).toISOString();

/** The days each step's run was called for with work to do, in order. */
const calls = new Map<ProcedureName, string[]>();
const recorder = (name: ProcedureName): Omit<ProcedureDeclaration, 'name'> => ({
  async run(_ctx, scope: ChunkScope) {
    calls.set(name, [...(calls.get(name) ?? []), scope.chunk.day]);
  },
});
const STEPS: ProcedureName[] = ['train-preprocessing', 'combine', 'shunting-and-stabling', 'energy-outside-train-run'];
const worked = (name: ProcedureName) => [...(calls.get(name) ?? [])].sort();

/**
 * Allocated as the days arrive (issue 19, due-days.ts): the engine's due marks, the runs with option
 * onlyDue that skip the days nothing changed, and the nightly job that starts them, through the
 * real procedure-run, follow-up and chain (the steps' own work replaced by a recorder keeping their
 * followers and due days).
 */
describe('the nightly allocation', { timeout: 300_000 }, () => {
  let t: TestApp;
  const norway = () => t.areaUuid('norway');
  const idle = () => waitForIdle(t.database, norway());
  const nightly = (now: string) =>
    startNightlyAllocation(
      {
        database: t.database,
        followUp: (ctx, followUp) => t.app.jobs.enqueue(ctx, procedureFollowUpJob, followUp),
        log: t.app.log,
      },
      new Date(now),
    );
  const marks = async () =>
    (
      await t.allAreas.query<{ p: string; d: string }>(
        `SELECT procedure_name AS p, to_char(day_start AT TIME ZONE 'Europe/Oslo', 'YYYY-MM-DD') AS d
           FROM procedure_due_day ORDER BY 1, 2`,
      )
    ).map((m) => `${m.p} ${m.d}`);

  beforeAll(async () => {
    t = await createTestApp({
      jobs: {},
      procedures: withProcedures({
        ...Object.fromEntries(STEPS.map((s) => [s, recorder(s)])),
        'reported-train-consumption': { async run() {} },
      }),
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('runs each step only on the days a change reached, a night at a time, and nothing twice', async () => {
    // A person's run of the 1st to 3rd: every step does the three days; nothing is left due.
    const response = await t.callAs(RUNNER, {
      method: 'POST',
      url: '/api/processing/train-preprocessing/run?zoneId=Europe/Oslo',
      payload: { timeRange: { start: start(1), end: start(4) } },
    });
    expect(response.statusCode, response.body).toBe(200);
    await idle();
    for (const step of STEPS) expect(worked(step), step).toEqual([day(1), day(2), day(3)]);
    expect(await marks()).toEqual([]);

    // The night after the 3rd: nothing is due before the 4th, nothing runs.
    calls.clear();
    expect(await nightly('2024-03-04T01:30:00Z')).toEqual([]);

    // A train-run file corrects the 2nd and brings the 4th (trainrun/service.ts marks them).
    await markDaysDue(
      tenantExecutor(t.database, norway()),
      { uuid: norway(), timeZone: 'Europe/Oslo' },
      'train-preprocessing',
      [day(2), day(4)],
    );
    expect(await marks()).toEqual([`train-preprocessing ${day(2)}`, `train-preprocessing ${day(4)}`]);
    // Before the 4th has ended, the night does the 2nd alone.
    const first = await nightly('2024-03-04T01:30:00Z');
    expect(first).toEqual([{ area: 'norway', start: start(2), end: start(4) }]);
    await idle();
    for (const step of STEPS) expect(worked(step), step).toEqual([day(2)]);
    expect(await marks()).toEqual([`train-preprocessing ${day(4)}`]);

    // The next night does the 4th, the day never processed before it included (the 3rd is not).
    calls.clear();
    expect(await nightly('2024-03-05T01:30:00Z')).toEqual([{ area: 'norway', start: start(4), end: start(5) }]);
    await idle();
    for (const step of STEPS) expect(worked(step), step).toEqual([day(4)]);
    expect(await marks()).toEqual([]);

    // A step that fails leaves its day marked for the next night, which does it again with the steps after it.
    calls.clear();
    await markDaysDue(tenantExecutor(t.database, norway()), { uuid: norway(), timeZone: 'Europe/Oslo' }, 'combine', [
      day(3),
    ]);
    expect(await nightly('2024-03-05T01:30:00Z')).toEqual([{ area: 'norway', start: start(3), end: start(5) }]);
    await idle();
    expect(worked('train-preprocessing')).toEqual([]);
    for (const step of STEPS.slice(1)) expect(worked(step), step).toEqual([day(3)]);
    expect(await marks()).toEqual([]);

    // The state of each result: every run succeeded; the skipped days count no records.
    const results = await t.allAreas.query<{ name: string; status: string; only_due: boolean | null }>(
      `SELECT procedure_name AS name, status, (run_options ->> 'onlyDue')::boolean AS only_due
         FROM procedure_result WHERE procedure_name = ANY($1) ORDER BY id`,
      [STEPS],
    );
    expect(results.every((r) => r.status === 'success')).toBe(true);
    expect(results.filter((r) => r.only_due).length).toBe(STEPS.length * 3);
  });
});
