import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { allAreasDatabase, allAreasExecutor } from '../../db/tenant.js';
import { areaUuid } from '../../seed/areas.js';
import { openTestDatabase } from '../../test/database.js';
import { endUnqueuedResults, UNQUEUED_MESSAGE } from './recovery.js';

const NORWAY = areaUuid('norway');

/**
 * A result stored but never given its job (the process died while queuing it) would refuse every
 * run of its period for ever (service.ts: a result without a job is being queued). At start-up it
 * is adopted by a job that names it, or fails so the period is free (issue 17 item 5).
 */
describe('start-up: procedure results left without a job', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
    await database.useAppRole();
  });

  afterAll(async () => {
    await database?.close();
  });

  it('adopts the queued job that names a result, fails one without, and leaves the rest', async () => {
    const db = allAreasDatabase(database);
    const result = async (procedure: string, status: string, month: string, jobId: string | null = null) => {
      const [row] = await db.query<{ id: number }>(
        `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username, job_id)
         VALUES ($1, $2, $3, $4::timestamptz, $4::timestamptz + interval '1 month', 'test', $5::uuid)
         RETURNING id::int AS id`,
        [NORWAY, procedure, status, `${month}-01T00:00:00Z`, jobId],
      );
      return row!.id;
    };
    const job = async (id: string, procedureResultId: number, status: string) =>
      db.query(
        `INSERT INTO job_run (id, tenant, name, status, payload, username, roles)
         VALUES ($1::uuid, $2, 'procedure-run', $3, $4::jsonb, 'test', '{}')`,
        [id, NORWAY, status, JSON.stringify({ procedureResultId })],
      );
    const orphan = await result('settlement', 'initial', '2021-01');
    const queued = await result('combine', 'initial', '2021-01');
    const queuedJob = '00000000-0000-4000-8000-00000000c0de';
    await job(queuedJob, queued, 'queued');
    const endedJob = await result('profile', 'initial', '2021-01');
    await job('00000000-0000-4000-8000-00000000dead', endedJob, 'dead');
    const running = await result('annual-distribution', 'running', '2021-01', queuedJob);

    expect(await endUnqueuedResults(allAreasExecutor(database))).toBe(2);
    const after = new Map(
      (
        await db.query<{ id: number; status: string; message: string | null; job: string | null }>(
          `SELECT id::int AS id, status, message, job_id::text AS job FROM procedure_result`,
        )
      ).map((r) => [r.id, r]),
    );
    expect(after.get(orphan)).toMatchObject({ status: 'failure', message: UNQUEUED_MESSAGE });
    expect(after.get(queued)).toMatchObject({ status: 'initial', job: queuedJob });
    expect(after.get(endedJob)).toMatchObject({ status: 'failure', message: UNQUEUED_MESSAGE });
    expect(after.get(running)).toMatchObject({ status: 'running', job: queuedJob });
  });
});
