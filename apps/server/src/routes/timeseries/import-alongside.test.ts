import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRun, TimeSeriesUploadResult } from '@railwatt/contracts';
import { cebdXml } from '../../formats/cebd/generate.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { consumptionPointCpids } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

const RESPONSIBLE = 'settlement-area-responsible';
/**
 * The longest a poll may wait while the import runs (issue 17: "must answer within a second", on a
 * quiet machine). Under load (CI runs two test files at once on two cores) every answer and the
 * import itself slow down alike, so the bound grows with the import: a poll blocked by the import's
 * transaction would wait for most of it, one that runs alongside waits a small part of it.
 */
const ANSWER_WITHIN_MS = 1000;
const answerBound = (importMs: number) => Math.max(ANSWER_WITHIN_MS, importMs / 4);

/**
 * Issue 17 item 1: on the embedded database every piece of work shares one session, and a CEBD
 * file of a few MB once never finished (its progress write waited for its own transaction), with
 * /health and every request hanging from that moment. A file that takes seconds to store now
 * imports while /health, the data-log list and the run's progress keep answering within a second
 * (db/embedded-session.ts); the same holds on PostgreSQL.
 */
describe('a file that takes seconds imports while the server keeps answering', () => {
  let t: TestApp;
  let cpids: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet', 'infrastructure'], jobs: {} });
    cpids = await consumptionPointCpids(t.allAreas, t.areaUuid('norway'), 48);
  });
  afterAll(async () => t?.close());

  it('imports a CEBD file of 48 consumption points x 5 days (13 MB) with /health, the data log and progress answering', async () => {
    const start = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 11) + '00:00:00Z';
    const xml = [
      ...cebdXml({
        seed: 17,
        points: cpids.map((cpid) => ({
          cpid,
          route: [
            { lat: 59.91, lon: 10.75 },
            { lat: 63.43, lon: 10.4 },
          ],
          start,
          periods: 5 * 288,
        })),
      }),
    ].join('');
    expect(cpids).toHaveLength(48);
    const res = await t.uploadAs(RESPONSIBLE, '/api/cebd/import', [{ fileName: 'five-days.xml', bytes: xml }]);
    expect(res.statusCode).toBe(200);
    const answer = res.json<TimeSeriesUploadResult>();
    const jobId = answer.jobIds![0]!;

    const slowest = { health: 0, list: 0, progress: 0 };
    const progressSeen = new Set<number>();
    let polls = 0;
    let finished = false;
    const timed = async <R extends { statusCode: number }>(name: keyof typeof slowest, call: () => Promise<R>) => {
      const began = performance.now();
      const reply = await call();
      slowest[name] = Math.max(slowest[name], performance.now() - began);
      expect(reply.statusCode).toBe(200);
      return reply;
    };
    const poll = async () => {
      while (!finished) {
        await timed('health', () => t.app.inject({ method: 'GET', url: '/health' }));
        await timed('list', () => t.callAs(RESPONSIBLE, { method: 'GET', url: '/api/eventlog/datalog?size=20' }));
        const run = await timed('progress', () => t.callAs(RESPONSIBLE, { method: 'GET', url: `/api/jobs/${jobId}` }));
        const { status, progress } = run.json<JobRun>();
        if (status === 'running') progressSeen.add(progress);
        polls++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const polling = poll();
    const began = Date.now();
    const run = await waitForRun(t.database, jobId, { timeoutMs: 120_000 }).finally(() => {
      finished = true;
    });
    await polling;
    const took = Date.now() - began;

    expect(run).toMatchObject({ status: 'success', progress: 1 });
    expect(run.message).toMatch(/^Imported 276480 values of 192 time series/);
    // The import took long enough for the polls to mean something, and they kept answering.
    expect(took).toBeGreaterThan(1500);
    expect(polls).toBeGreaterThan(3);
    expect(slowest.health).toBeLessThan(answerBound(took));
    expect(slowest.list).toBeLessThan(answerBound(took));
    expect(slowest.progress).toBeLessThan(answerBound(took));
    // Progress moved while the file was read (not 0 % and then done): on PGlite its writes wait for
    // the import's transaction, so the screens see it from the runner's memory meanwhile.
    expect([...progressSeen].filter((p) => p > 0 && p < 1).length).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
