import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { MESSAGES, type ReportSchedule, type ReportScheduleBodyInput } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportQueue } from '../../jobs/report-order.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { startFtpServer, type TestFtpServer } from '../../test/delivery-peers.js';
import { parseAllowedHosts } from '../interface/allowed-hosts.js';
import { REPORTS } from '../reports/index.js';
import { nextRunAfter, reportedMonth } from './due.js';
import { runDueSchedules } from './service.js';
import { REPORT_SCHEDULE_CRON, reportScheduleJob } from '../../jobs/report-schedule.js';
import { waitForRun } from '../../test/jobs.js';

/**
 * Report schedules (issue 20 item 4) through GET/POST /processing/scheduledreports, .../with-credentials
 * and DELETE .../{id}, and the runner (runDueSchedules, the report-schedule job's round): a due schedule
 * becomes a "Scheduled report" entry made by the report-order job as its owner, whose file arrives at a
 * real FTP server (ftp-srv); a delivery the server refuses is tried again and then ERROR with the
 * reason, and the ERROR entry is re-ordered like an ordered report.
 */
const RESPONSIBLE = 'settlement-area-responsible';
const OPERATOR = 'erex-settlement-operator';
const CONSUMER = 'consumer';
const CP_ADMIN = 'cp-admin';
const URL = '/api/processing/scheduledreports';

describe('report schedules', () => {
  let t: TestApp;
  let ftp: TestFtpServer;
  let tenant = '';

  const body = (over: Partial<ReportScheduleBodyInput> = {}): ReportScheduleBodyInput => ({
    name: 'Monthly prices',
    reportName: 'priceelements',
    frequency: 'monthly',
    time: '06:30',
    dayOfMonth: 3,
    format: 'csv',
    language: 'en',
    destination: {
      destinationType: 'ftp',
      host: '127.0.0.1',
      port: ftp.port,
      remoteDirectory: '/reports',
      username: 'reports',
      password: 's3cret',
    },
    ...over,
  });
  const save = (username: string, payload: unknown, credentials = true) =>
    t.callAs(username, {
      method: 'POST',
      url: credentials ? `${URL}/with-credentials` : URL,
      payload: payload as object,
    });
  const list = async (username: string, query = '') => {
    const res = await t.callAs(username, { method: 'GET', url: `${URL}${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ReportSchedule[]>();
  };
  const entry = async (id: number) => {
    const [row] = await t.allAreas.query<{ status: string; text: string; type: string; username: string }>(
      `SELECT message_status AS status, message_text AS text, message_type AS type, username FROM data_log WHERE id = $1`,
      [id],
    );
    return row!;
  };
  const settled = async (id: number) => {
    for (let i = 0; i < 600; i++) {
      const found = await entry(id);
      if (found.status !== 'RUNNING') return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`entry ${id} still RUNNING`);
  };
  const round = (now: Date) =>
    runDueSchedules(
      { database: t.database, queue: reportQueue(t.app.jobs), reports: REPORTS, log: pino({ level: 'silent' }) },
      now,
    );

  beforeAll(async () => {
    ftp = await startFtpServer({ user: 'reports', pass: 's3cret' });
    t = await createTestApp({
      seeders: ['areas', 'users'],
      jobs: {},
      config: {
        interfaceAllowedHosts: parseAllowedHosts('127.0.0.1'),
        scheduledDeliveryRetry: { attempts: 3, delayMs: 20 },
      },
    });
    tenant = t.areaUuid('norway');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await ftp?.close();
  });

  it('saves a schedule, answers it without the password, and keeps the password encrypted', async () => {
    const res = await save(RESPONSIBLE, body());
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<ReportSchedule>();
    expect(saved).toMatchObject({
      name: 'Monthly prices',
      reportName: 'priceelements',
      frequency: 'monthly',
      time: '06:30',
      dayOfMonth: 3,
      dayOfWeek: null,
      owner: RESPONSIBLE,
      destination: { destinationType: 'ftp', host: '127.0.0.1', username: 'reports', hasPassword: true },
    });
    expect(res.body).not.toContain('s3cret');
    expect(JSON.stringify(await list(RESPONSIBLE))).not.toContain('s3cret');
    const [stored] = await t.allAreas.query<{ destination: string }>(
      `SELECT destination::text FROM report_schedule WHERE uuid = $1`,
      [saved.id],
    );
    expect(stored!.destination).not.toContain('s3cret');
    expect(stored!.destination).toContain('passwordEncrypted');
    // Next run: the 3rd at 06:30 Oslo time.
    const next = new Date(saved.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Oslo',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      }).format(next),
    ).toBe('3, 06:30');

    // A change without a password keeps the stored one; the plain call refuses a password.
    const { password: _p, ...withoutPassword } = body().destination as { password: string };
    const changed = await save(
      RESPONSIBLE,
      { ...body(), id: saved.id, time: '07:00', destination: withoutPassword },
      false,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<ReportSchedule>()).toMatchObject({ time: '07:00', destination: { hasPassword: true } });
    const plainWithPassword = await save(RESPONSIBLE, { ...body(), id: saved.id }, false);
    expect(plainWithPassword.statusCode).toBe(400);
    // A new FTP schedule without a password is refused.
    const noPassword = await save(RESPONSIBLE, { ...body(), name: 'Other', destination: withoutPassword });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.body).toContain('The password field is required');
  });

  it("refuses a duplicate name in the area with calls.md's words", async () => {
    const res = await save(OPERATOR, body({ name: 'monthly PRICES' }));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toBe(MESSAGES.scheduleNameExists);
    expect(MESSAGES.scheduleNameExists).toBe('The schedule report name already exists.');
  });

  it('bounds every field', async () => {
    const bad: Partial<ReportScheduleBodyInput>[] = [
      { name: '' },
      { name: 'x'.repeat(201) },
      { time: '24:00' },
      { time: '6:30' },
      { frequency: 'weekly', dayOfWeek: null },
      { frequency: 'weekly', dayOfWeek: 8 },
      { frequency: 'monthly', dayOfMonth: 32 },
      { frequency: 'monthly', dayOfMonth: null },
      { daysAfterPeriod: 32 },
      { monthsAfterPeriod: 13 },
      { monthsAfterPeriod: -1 },
      { format: 'pdf' as never },
      { language: 'de' as never },
      { reportName: 'customerinvoicemonthappendix' },
      { reportName: 'nosuchreport' as never },
      { reportSpecificParameters: { toYear: 2026, toMonth: 3 } },
      { refs: [{ uuid: '00000000-0000-4000-8000-000000000001', type: 'Organisation' }] },
      {
        destination: {
          destinationType: 'ftp',
          host: 'evil host/x',
          remoteDirectory: '/',
          username: 'u',
          password: 'p',
        },
      },
      { destination: { destinationType: 'webservice', webserviceUri: 'http://plain.example/x' } },
    ];
    for (const over of bad) {
      const res = await save(RESPONSIBLE, body({ name: `Bounds ${JSON.stringify(over).length}`, ...over }));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
    }
    const weekly = await save(
      RESPONSIBLE,
      body({ name: 'Weekly prices', frequency: 'weekly', dayOfWeek: 1, destination: { destinationType: 'my email' } }),
    );
    expect(weekly.statusCode, weekly.body).toBe(200);
    expect(weekly.json<ReportSchedule>()).toMatchObject({ dayOfWeek: 1, dayOfMonth: null });
  });

  it('lets only the roles that may order the report schedule it; a consumer sees its own schedules only', async () => {
    expect((await save(CP_ADMIN, body({ name: 'cp prices' }))).statusCode).toBe(403);
    expect((await save('train-run-data-provider', body({ name: 'trdp' }))).statusCode).toBe(403);
    const mine = await save(CONSUMER, body({ name: 'Consumer prices', destination: { destinationType: 'my email' } }));
    expect(mine.statusCode, mine.body).toBe(200);
    const consumerSees = await list(CONSUMER);
    expect(consumerSees.map((s) => s.name)).toEqual(['Consumer prices']);
    const responsibleSees = await list(RESPONSIBLE, '?reportName=priceelements');
    expect(responsibleSees.map((s) => s.name)).toEqual(['Consumer prices', 'Monthly prices', 'Weekly prices']);
    // The consumer may not delete another's schedule; the responsible may delete any.
    const others = responsibleSees.find((s) => s.name === 'Weekly prices')!;
    expect((await t.callAs(CONSUMER, { method: 'DELETE', url: `${URL}/${others.id}` })).statusCode).toBe(403);
    const removed = await t.callAs(RESPONSIBLE, { method: 'DELETE', url: `${URL}/${others.id}` });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await list(RESPONSIBLE)).map((s) => s.name)).not.toContain('Weekly prices');
    expect((await t.callAs(RESPONSIBLE, { method: 'DELETE', url: `${URL}/${others.id}` })).statusCode).toBe(404);
    // Another area does not see it.
    expect(await list(RESPONSIBLE)).toHaveLength(2);
    const sweden = await t.callAs(RESPONSIBLE, { method: 'GET', url: URL }, 'sweden');
    expect(sweden.json<ReportSchedule[]>()).toEqual([]);
  });

  it('computes runs in the area zone and the month a run reports', () => {
    const timing = { frequency: 'weekly' as const, time: '02:30', dayOfWeek: 7, dayOfMonth: null };
    // Sunday 29 March 2026: 02:30 does not exist in Oslo (clocks jump 02:00 -> 03:00).
    const next = nextRunAfter(timing, new Date('2026-03-27T12:00:00Z'), 'Europe/Oslo');
    expect(next.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    const monthly = { frequency: 'monthly' as const, time: '00:15', dayOfWeek: null, dayOfMonth: 31 };
    expect(nextRunAfter(monthly, new Date('2026-02-01T00:00:00Z'), 'Europe/Oslo').toISOString()).toBe(
      '2026-02-27T23:15:00.000Z',
    );
    const run = new Date('2026-03-05T05:30:00Z');
    expect(reportedMonth(run, 'Europe/Oslo', { daysAfterPeriod: 0, monthsAfterPeriod: 0 })).toEqual({
      year: 2026,
      month: 2,
    });
    expect(reportedMonth(run, 'Europe/Oslo', { daysAfterPeriod: 10, monthsAfterPeriod: 0 })).toEqual({
      year: 2026,
      month: 1,
    });
    expect(reportedMonth(run, 'Europe/Oslo', { daysAfterPeriod: 0, monthsAfterPeriod: 2 })).toEqual({
      year: 2025,
      month: 12,
    });
  });

  it('a due schedule becomes a Scheduled report entry whose file arrives at the FTP server', async () => {
    const [schedule] = (await list(RESPONSIBLE)).filter((s) => s.name === 'Monthly prices');
    const now = new Date(new Date(schedule!.nextRunAt).getTime() + 1000);
    const runs = await round(now);
    const run = runs.find((r) => r.schedule === 'Monthly prices')!;
    expect(run.error).toBeUndefined();
    const done = await settled(run.dataLogId!);
    expect(done).toMatchObject({ status: 'OK', type: 'SCHEDULED_REPORT', username: RESPONSIBLE });
    expect(done.text).toMatch(/delivered: ftp:\/\/127\.0\.0\.1:\d+\/reports\/priceelements_\d{4}-\d{2}\.csv/);
    const fileName = /\/reports\/(priceelements_\d{4}-\d{2}\.csv)/.exec(done.text)![1]!;
    const file = await t.callAs(RESPONSIBLE, {
      method: 'GET',
      url: `/api/eventlog/datalog/reports/${run.dataLogId}/file`,
    });
    expect(file.statusCode).toBe(200);
    expect(readFileSync(join(ftp.root, 'reports', fileName)).equals(file.rawPayload)).toBe(true);
    // The schedule moved on to its next slot and names the run.
    const after = (await list(RESPONSIBLE)).find((s) => s.id === schedule!.id)!;
    expect(new Date(after.nextRunAt).getTime()).toBeGreaterThan(now.getTime());
    expect(after.lastDataLogId).toBe(run.dataLogId);
    // The same minute again runs nothing more.
    expect((await round(now)).filter((r) => r.schedule === 'Monthly prices')).toEqual([]);
  });

  it('a delivery the server refuses is tried again, then ERROR with the reason, and can be re-ordered', async () => {
    const res = await save(
      RESPONSIBLE,
      body({
        name: 'Wrong password',
        destination: { ...(body().destination as object), password: 'wrong' } as never,
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<ReportSchedule>();
    const runs = await round(new Date(new Date(saved.nextRunAt).getTime() + 1000));
    const run = runs.find((r) => r.schedule === 'Wrong password')!;
    const failed = await settled(run.dataLogId!);
    expect(failed.status).toBe('ERROR');
    expect(failed.text).toMatch(/not delivered \(ftp\): .*after 3 attempts/);

    const reorder = await t.callAs(OPERATOR, {
      method: 'POST',
      url: '/api/eventlog/datalog/reorder',
      payload: { id: run.dataLogId, messageType: 'SCHEDULED_REPORT' },
    });
    expect(reorder.statusCode, reorder.body).toBe(200);
    expect(reorder.json()).toMatchObject({ messageStatus: 'RETRIED' });
    const newId = Number(/entry (\d+)/.exec(reorder.json<{ messageText: string }>().messageText)![1]);
    const again = await settled(newId);
    expect(again.type).toBe('SCHEDULED_REPORT');
    expect(again.status).toBe('ERROR');
  });

  it("an owner who lost the report's roles gets an ERROR entry, not a file", async () => {
    const res = await save(CONSUMER, body({ name: 'Consumer monthly', destination: { destinationType: 'my email' } }));
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<ReportSchedule>();
    await t.allAreas.query(`DELETE FROM user_market_function WHERE username = $1 AND area_uuid = $2`, [
      CONSUMER,
      tenant,
    ]);
    const runs = await round(new Date(new Date(saved.nextRunAt).getTime() + 1000));
    const run = runs.find((r) => r.schedule === 'Consumer monthly')!;
    expect(run.error).toMatch(/may no longer order the report priceelements/);
    expect(await entry(run.dataLogId!)).toMatchObject({ status: 'ERROR', type: 'SCHEDULED_REPORT' });
  });

  it('the report-schedule job is scheduled every minute and its round orders what is due', async () => {
    expect(await t.app.jobs.applySchedules()).toContainEqual({
      job: reportScheduleJob.name,
      cron: REPORT_SCHEDULE_CRON,
    });
    const res = await save(OPERATOR, body({ name: 'Due now', destination: { destinationType: 'my email' } }));
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json<ReportSchedule>();
    await t.allAreas.query(`UPDATE report_schedule SET next_run_at = now() - interval '1 minute' WHERE uuid = $1`, [
      saved.id,
    ]);
    const [schedule] = await t.app.jobs.schedules(reportScheduleJob);
    const id = await t.app.jobs.boss!.send(reportScheduleJob.name, schedule!.envelope);
    const run = await waitForRun(t.database, id!, { until: ['success', 'failure', 'dead'] });
    expect(run.status, run.message ?? '').toBe('success');
    const after = (await list(OPERATOR)).find((s) => s.id === saved.id)!;
    expect(after.lastDataLogId).not.toBeNull();
    const made = await settled(after.lastDataLogId!);
    // "My email" is the owner's address; the embedded default keeps the message (SMTP_URL unset).
    expect(made).toMatchObject({ type: 'SCHEDULED_REPORT', username: OPERATOR, status: 'OK' });
    expect(made.text).toMatch(/delivered: /);
  }, 120_000);
});
