import { procedureResultSchema } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { constraintErrorOf } from '../../db/constraints.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';

const RUNNER = 'erex-settlement-operator';

/**
 * One run per scope on both databases (issue 17 item 7): requests sent at once meet the same rules
 * on PGlite's one session as on PostgreSQL's pool, and the rules are the database's, not only the
 * service's checks.
 */
describe('one run and one approval per scope; refs of the area only', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let organisation: string;
  let swedishOrganisation: string;

  beforeAll(async () => {
    t = await createTestApp({ jobs: {} });
    headers = await t.headersFor(RUNNER);
    organisation = await insertEntity(t.allAreas, t.areaUuid('norway'), 'organisation', 'Scope test RU');
    swedishOrganisation = await insertEntity(t.allAreas, t.areaUuid('sweden'), 'organisation', 'Scope test RU SE');
  });

  afterAll(async () => {
    await t?.close();
  });

  // Tokens are minted once: each request sent at once is only the call itself.
  const run = (procedure: string, body: object) =>
    t.app.inject({ method: 'POST', url: `/api/processing/${procedure}/run`, headers, payload: body });
  const month = (m: number) => ({
    start: `2023-${String(m).padStart(2, '0')}-01T00:00:00Z`,
    end: `2023-${String(m + 1).padStart(2, '0')}-01T00:00:00Z`,
  });

  it('runs one of two (or three) settlement runs of a month sent at once and refuses the others', async () => {
    for (const [m, copies] of [
      [1, 2],
      [2, 3],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: copies }, () => run('settlement', { timeRange: month(m) })),
      );
      const accepted = answers.filter((a) => a.statusCode === 200);
      expect(accepted, answers.map((a) => a.body).join('\n')).toHaveLength(1);
      for (const refused of answers.filter((a) => a.statusCode !== 200)) {
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({
          code: 'process_already_running',
          message: 'Process is already running',
        });
      }
      const result = procedureResultSchema.parse(accepted[0]!.json());
      expect((await waitForRun(t.database, result.jobId!)).status).toBe('success');
    }
    const [{ n } = { n: 0 }] = await t.allAreas.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM procedure_result WHERE procedure_name = 'settlement' AND period_start < '2023-03-01'`,
    );
    expect(n).toBe(2);
  });

  it('refuses refs naming another area’s entity, or nothing, with 400; the area’s own are run', async () => {
    const refused = await run('settlement', {
      timeRange: month(4),
      refs: [
        { uuid: organisation, type: 'Organisation' },
        { uuid: swedishOrganisation, type: 'Organisation' },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'invalid_input',
      message: `refs name no entity of this area: ${swedishOrganisation}`,
    });
    const unknown = '00000000-0000-4000-8000-0000000000aa';
    const tasks = await t.app.inject({
      method: 'POST',
      url: '/api/processing/tasks/settlement?year=2023&month=5',
      headers,
      payload: { refs: [{ uuid: unknown, type: 'Organisation' }] },
    });
    expect(tasks.statusCode).toBe(400);
    expect(tasks.json().message).toBe(`refs name no entity of this area: ${unknown}`);

    const own = await run('settlement', { timeRange: month(4), refs: [{ uuid: organisation, type: 'Organisation' }] });
    expect(own.statusCode, own.body).toBe(200);
    expect(procedureResultSchema.parse(own.json()).entityRefs).toEqual([{ uuid: organisation, type: 'Organisation' }]);
    await waitForRun(t.database, own.json().jobId);
  });

  describe('one approved result per scope is the database’s rule', () => {
    const tenant = () => t.areaUuid('norway');
    /** A settlement result stored as it stands, past the service (the rule must hold without it). */
    const stored = async (status: string, refs: string[], tpa = false) => {
      const [row] = await t.allAreas.query<{ id: number }>(
        `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username,
                                       entity_refs, ref_uuids, run_options)
         VALUES ($1, 'settlement', $2, '2022-06-01T00:00:00Z', '2022-07-01T00:00:00Z', 'test', $3::jsonb, $4::uuid[], $5::jsonb)
         RETURNING id::int AS id`,
        [
          tenant(),
          status,
          JSON.stringify(refs.map((uuid) => ({ uuid, type: 'Organisation' }))),
          refs,
          JSON.stringify(tpa ? { tpa: true } : {}),
        ],
      );
      return row!.id;
    };

    it('refuses a second approved result of a scope, the refs in any order, answered approved-settlement-exists', async () => {
      const a = '00000000-0000-4000-8000-00000000000a';
      const b = '00000000-0000-4000-8000-00000000000b';
      await stored('approved', [a, b]);
      const again = await stored('approved', [b, a]).catch((error: unknown) => error);
      expect(constraintErrorOf(again)).toEqual({
        code: 'approved-settlement-exists',
        message: 'Approved settlement already exists for the area or organisation',
      });
      // Other scopes, and the versions an approval corrected, are no conflict.
      await stored('approved', [a]);
      await stored('approved', [a, b], true);
      await stored('corrected', [a, b]);
      await stored('success', [b, a]);
    });

    it('answers two approvals of one scope sent at once with one approval and one 400', async () => {
      const first = await stored('success', [organisation]);
      const second = await stored('success', [organisation]);
      const approve = (id: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/eventlog/procedure-result/approve-procedure-results',
          headers,
          payload: [id],
        });
      const answers = await Promise.all([approve(first), approve(second)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
      expect(answers.find((a) => a.statusCode === 400)!.json()).toMatchObject({
        code: 'approved-settlement-exists',
        message: 'Approved settlement already exists for the area or organisation',
      });
      const [{ n } = { n: 0 }] = await t.allAreas.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM procedure_result WHERE id = ANY($1::bigint[]) AND status = 'approved'`,
        [[first, second]],
      );
      expect(n).toBe(1);
    });
  });
});
