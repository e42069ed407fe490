import {
  dayStartInZone,
  delayedTaskPageSchema,
  procedureResultSchema,
  type DelayedTask,
  type ProcedureResult,
} from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenantDatabase } from '../../db/tenant.js';
import { DELAYED_TASKS_CRON, delayedTasksJob } from '../../jobs/delayed-tasks.js';
import { seedAllocationDay } from '../../modules/allocation/fixtures.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';

const RUNNER = 'erex-settlement-operator';
const AUDIT = 'audit-settlement-area-responsible';
const COUNT = '/api/eventlog/delayed-tasks/count?destinationUri=shunting-and-stabling';
const LIST = '/api/eventlog/delayed-tasks?destinationUri=shunting-and-stabling&sortBy=id&descendingOrder=false';
const RUN_TASK = '/api/processing/shunting-and-stabling/run-delayed-task';

/**
 * The two steps and the delayed tasks as a user meets them: the runs through
 * POST /processing/{procedure}/run, the tasks through their calls. The day is three days ago in
 * Oslo, so with train-preprocessing's default maxDaysLate (5) its late window is still open.
 */
describe('shunting-and-stabling, energy-outside-train-run and delayed tasks through the API', () => {
  let t: TestApp;
  let day: { start: string; end: string };
  const norway = () => t.areaUuid('norway');

  const get = (url: string, username = RUNNER, kind: 'norway' | 'sweden' = 'norway') =>
    t.callAs(username, { method: 'GET', url }, kind);
  const post = (url: string, payload: unknown, username = RUNNER, kind: 'norway' | 'sweden' = 'norway') =>
    t.callAs(username, { method: 'POST', url, payload: payload as object }, kind);
  const runProcedure = async (procedure: string) => {
    const response = await post(`/api/processing/${procedure}/run`, { timeRange: day });
    expect(response.statusCode, response.body).toBe(200);
    const result = procedureResultSchema.parse(response.json());
    await waitForRun(t.database, result.jobId!);
    return result;
  };
  const events = (resultId: number) =>
    t.allAreas.query<{ error_code: string; incidents: number }>(
      `SELECT error_code, incidents FROM processing_event WHERE procedure_result_id = $1`,
      [resultId],
    );
  const categories = async () =>
    Object.fromEntries(
      (
        await t.allAreas.query<{ category: string; payer: string; n: number }>(
          `SELECT category, payer, sum(records)::int AS n FROM allocated_energy_hourly WHERE tenant = $1 GROUP BY 1, 2`,
          [norway()],
        )
      ).map((r) => [`${r.category}|${r.payer}`, r.n]),
    );
  const tasks = async () => delayedTaskPageSchema.parse((await get(LIST)).json()).content;
  /**
   * The chain (shunting-and-stabling's followers, src/procedures.ts) runs energy-outside-train-run by itself after a
   * shunting-and-stabling run succeeds: waits for that follow-up of `after` to finish.
   */
  const followUpDone = async (after: number) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [found] = await t.allAreas.query<{ status: string }>(
        `SELECT status FROM procedure_result WHERE procedure_name = 'energy-outside-train-run'
            AND username = 'system' AND id > $1 ORDER BY id DESC LIMIT 1`,
        [after],
      );
      if (found && !['initial', 'running'].includes(found.status)) return found.status;
      if (Date.now() > deadline) throw new Error(`No finished follow-up after ${after}: ${JSON.stringify(found)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    t = await createTestApp({ jobs: {} });
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(
      new Date(Date.now() - 3 * 86_400_000),
    );
    const next = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(
      new Date(Date.parse(`${date}T12:00:00Z`) + 86_400_000),
    );
    const iso = (d: string) => new Date(dayStartInZone(d, 'Europe/Oslo')).toISOString();
    day = { start: iso(date), end: iso(next) };
    await seedAllocationDay(tenantDatabase(t.database, norway()), norway(), day.start);
  });
  afterAll(async () => t?.close());

  it('allocates by the rules, reports the records beyond the limit and records a delayed task', async () => {
    const shunting = await runProcedure('shunting-and-stabling');
    // The fixture's day (modules/allocation/fixtures.ts; worked out in allocation.test.ts): 4 records
    // near a run, 5 beyond 60 minutes; the chain's energy-outside-train-run then places 4 of those 5
    // (the next test runs it by hand and finds the same).
    expect(await followUpDone(shunting.id)).toBe('success');
    expect(await categories()).toEqual({
      'train-run|ru': 1,
      'shunting-and-stabling|ru': 4,
      'energy-outside-train-run|ru': 4,
    });
    expect(await events(shunting.id)).toEqual([{ error_code: 'shunting-limits-exceeded', incidents: 5 }]);
    const [task, ...more] = await tasks();
    expect(more).toEqual([]);
    // Due when the late window closes: the day's end + 60 minutes + 5 days.
    expect(task).toMatchObject({
      destinationUri: 'shunting-and-stabling',
      periodStart: day.start,
      periodEnd: day.end,
      dueAt: new Date(Date.parse(day.end) + 3_600_000 + 5 * 86_400_000).toISOString(),
      status: 'waiting',
      procedureResultId: shunting.id,
    });
    expect((await get(COUNT)).json()).toBe(1);
  });

  it('gives the rest to the previous run’s RU or the vehicle keeper and reports the record without a payer', async () => {
    const outside = await runProcedure('energy-outside-train-run');
    // 5 left: 3 to a previous run's RU within 1440 minutes (10:20 R1, 16:30 R2, CP2 00:30 R3),
    // 20:00 is 420 minutes after R2 (within 1440: RU2 too), CP2 23:00 is 1500 after R3 and U2 has no
    // owner: no payer. RU 4, keeper 0, no payer 1.
    expect(await categories()).toEqual({
      'train-run|ru': 1,
      'shunting-and-stabling|ru': 4,
      'energy-outside-train-run|ru': 4,
    });
    expect(await events(outside.id)).toEqual([{ error_code: 'match-energy-failed', incidents: 1 }]);
  });

  describe('GET /eventlog/delayed-tasks/count and the list', () => {
    it('answers the readers of processes, 401 without a token, 403 to others, 400 to a bad destination', async () => {
      for (const username of [RUNNER, AUDIT, 'consumer']) {
        const response = await get(COUNT, username);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toBe(1);
        expect((await get(LIST, username)).json<{ totalElements: number }>().totalElements).toBe(1);
      }
      expect((await t.app.inject({ method: 'GET', url: COUNT })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: LIST })).statusCode).toBe(401);
      expect((await get(COUNT, 'vehicle-keeper')).statusCode).toBe(403);
      expect((await get(LIST, 'vehicle-keeper')).statusCode).toBe(403);
      const bad = await get('/api/eventlog/delayed-tasks/count?destinationUri=nowhere');
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ code: string }>().code).toBe('invalid_input');
      expect((await get('/api/eventlog/delayed-tasks/count')).statusCode).toBe(400);
      expect((await get(`${LIST}&status=sleeping`)).statusCode).toBe(400);
      expect((await get(`${LIST}&size=0`)).statusCode).toBe(400);
    });

    it('shows another area none of them', async () => {
      expect((await get(COUNT, RUNNER, 'sweden')).json()).toBe(0);
      expect((await get(LIST, RUNNER, 'sweden')).json<{ totalElements: number }>().totalElements).toBe(0);
    });

    it('filters by status and pages', async () => {
      const waiting = await get(`${LIST}&status=waiting&size=1&page=0`);
      expect(waiting.json()).toMatchObject({ totalElements: 1, totalPages: 1 });
      expect((await get(`${LIST}&status=done`)).json()).toMatchObject({ totalElements: 0, content: [] });
    });
  });

  describe('POST /processing/shunting-and-stabling/run-delayed-task', () => {
    let task: DelayedTask;
    beforeAll(async () => {
      [task] = (await tasks()) as [DelayedTask];
    });

    it('refuses without a token (401), the audit roles (403), a bad body (400), another area’s or an unknown task (400)', async () => {
      expect((await t.app.inject({ method: 'POST', url: RUN_TASK, payload: { id: task.id } })).statusCode).toBe(401);
      expect((await post(RUN_TASK, { id: task.id }, AUDIT)).statusCode).toBe(403);
      expect((await post(RUN_TASK, { id: 'first' })).statusCode).toBe(400);
      expect((await post(RUN_TASK, { id: -1 })).statusCode).toBe(400);
      const unknown = await post(RUN_TASK, { id: task.id + 1000 });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ message: string }>().message).toBe(
        `Unknown shunting-and-stabling delayed task ${task.id + 1000}`,
      );
      // Sweden does not see Norway's task: the same answer as an unknown one.
      expect((await post(RUN_TASK, { id: task.id }, RUNNER, 'sweden')).statusCode).toBe(400);
      // Nothing is due yet: "run all due" (an empty body, or none) starts nothing.
      const none = await post(RUN_TASK, {});
      expect(none.statusCode, none.body).toBe(200);
      expect(none.json()).toEqual([]);
      const noBody = await t.callAs(RUNNER, { method: 'POST', url: RUN_TASK });
      expect(noBody.statusCode, noBody.body).toBe(200);
      expect(noBody.json()).toEqual([]);
    });

    it('runs a task now: the day is judged again, the task is done and, the window being open, a new one waits', async () => {
      const response = await post(RUN_TASK, { id: task.id });
      expect(response.statusCode, response.body).toBe(200);
      const [result, ...more] = response.json<ProcedureResult[]>();
      expect(more).toEqual([]);
      expect(result).toMatchObject({
        procedureName: 'shunting-and-stabling',
        periodStart: day.start,
        periodEnd: day.end,
      });
      await waitForRun(t.database, result!.jobId!);
      const after = await tasks();
      expect(after.map((x) => [x.id === task.id, x.status, x.startedResultId])).toEqual([
        [true, 'done', result!.id],
        [false, 'waiting', null],
      ]);
      expect((await get(COUNT)).json()).toBe(1);
      // A done task is not run again.
      const again = await post(RUN_TASK, { id: task.id });
      expect(again.statusCode).toBe(400);
      expect(again.json<{ message: string }>().message).toBe(`The delayed task ${task.id} is done`);
      // The /run route of every procedure still works beside it.
      await runProcedure('shunting-and-stabling');
    });

    it('starts the due tasks on the schedule, and the closed window leaves none waiting', async () => {
      // The late window closes 1 day after the operating day from now on; the waiting task is due.
      const config = await post('/api/domain/processing-config/train-preprocessing', {
        validFrom: '1970-01-01T00:00:00Z',
        value: { maxDaysLate: 1 },
      });
      expect(config.statusCode, config.body).toBe(200);
      await t.allAreas.query(`UPDATE delayed_task SET due_at = now() - interval '1 minute' WHERE status = 'waiting'`);
      // The schedule as start.ts puts it in place (the job's declared schedule), and what pg-boss's
      // cron sends when it comes due.
      expect(await t.app.jobs.applySchedules()).toContainEqual({ job: delayedTasksJob.name, cron: DELAYED_TASKS_CRON });
      const [schedule, ...others] = await t.app.jobs.schedules(delayedTasksJob);
      expect(others).toEqual([]);
      expect(schedule).toMatchObject({ cron: DELAYED_TASKS_CRON, envelope: { username: 'system', roles: [] } });
      const id = await t.app.jobs.boss!.send(delayedTasksJob.name, schedule!.envelope);
      const round = await waitForRun(t.database, id!, { until: ['success', 'failure', 'dead'] });
      expect(round).toMatchObject({
        status: 'success',
        message: 'Started 1 delayed shunting-and-stabling tasks in 1 areas',
      });
      // The round started the day's run in Norway, as the system.
      const started = await t.allAreas.query<{ job_id: string; tenant: string }>(
        `SELECT job_id::text, tenant::text FROM procedure_result
          WHERE username = 'system' AND procedure_name = 'shunting-and-stabling'`,
      );
      expect(started.map((r) => r.tenant)).toEqual([norway()]);
      await waitForRun(t.database, started[0]!.job_id);
      expect((await tasks()).map((x) => x.status)).toEqual(['done', 'done']);
      expect((await get(COUNT)).json()).toBe(0);
      // The allocation is the same: the day was judged with the same runs.
      expect(await categories()).toMatchObject({ 'shunting-and-stabling|ru': 4 });
    });
  });
});
