import { procedureResultSchema, settledConsumptionSchema, type ProcedureResult } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertAllocatedRecord } from '../../modules/allocation/fixtures.js';
import { settlementProcedure } from '../../modules/settlement/procedures.js';
import { setSettlementToFailure } from '../../modules/processing/tasks.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { insertEntity } from '../../test/entities.js';
import { waitForRun } from '../../test/jobs.js';
import { withProcedures } from '../../test/procedures.js';

const RUNNER = 'erex-settlement-operator';
const AUDIT = 'audit-settlement-area-responsible';
const results = z.array(procedureResultSchema);

describe('task calls and procedure-result writes', () => {
  let t: TestApp;
  /** While true, settlement's first day sets its own result to failure (the operator's call in flight). */
  let stopInFlight = false;

  const post = (url: string, payload: unknown, username = RUNNER, kind: 'norway' | 'sweden' = 'norway') =>
    t.callAs(username, { method: 'POST', url, payload: payload as object }, kind);
  const get = (url: string, username = RUNNER) => t.callAs(username, { method: 'GET', url });

  /** A settlement task for the month, run to its end (with no allocated energy the settlement has nothing to bill: success). */
  async function settle(month: number, refs: object[] = []): Promise<ProcedureResult> {
    const response = await post(`/api/processing/tasks/settlement?year=2024&month=${month}&zoneId=Europe/Oslo`, {
      refs,
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = procedureResultSchema.parse(response.json());
    await waitForRun(t.database, result.jobId!);
    return result;
  }

  /** Organisations of the Norway area: a run's refs name entities of its area (service.ts startRun). */
  let organisation: string;
  let otherOrganisation: string;

  beforeAll(async () => {
    t = await createTestApp({
      jobs: {},
      procedures: withProcedures({
        settlement: {
          ...settlementProcedure,
          run: async (ctx, scope, report) => {
            if (!stopInFlight) return settlementProcedure.run(ctx, scope, report);
            if (scope.chunk.index === 0)
              await setSettlementToFailure(ctx, scope.run.procedureResultId, 'Stopped by the operator');
          },
        },
      }),
    });
    organisation = await insertEntity(t.allAreas, t.areaUuid('norway'), 'organisation', 'Tasks test RU');
    otherOrganisation = await insertEntity(t.allAreas, t.areaUuid('norway'), 'organisation', 'Tasks test keeper');
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('POST and GET /processing/tasks/{procedure}', () => {
    it('starts a run for the month of the query, in its zone', async () => {
      const result = await settle(1);
      expect(result).toMatchObject({ procedureName: 'settlement', status: 'initial', username: RUNNER });
      // January in Oslo: from 31 December 23:00 UTC to 31 January 23:00 UTC.
      expect(Date.parse(result.periodStart)).toBe(Date.parse('2023-12-31T23:00:00Z'));
      expect(Date.parse(result.periodEnd)).toBe(Date.parse('2024-01-31T23:00:00Z'));
    });

    it('GET starts the same task without a body, in the area’s zone by default', async () => {
      const response = await get('/api/processing/tasks/profile?year=2024&month=7&procedureName=profile');
      expect(response.statusCode, response.body).toBe(200);
      const result = procedureResultSchema.parse(response.json());
      expect(result).toMatchObject({ procedureName: 'profile', entityRefs: [] });
      expect(Date.parse(result.periodStart)).toBe(Date.parse('2024-06-30T22:00:00Z'));
      expect((await waitForRun(t.database, result.jobId!)).status).toBe('success');
    });

    it('answers 401, 403 and 400 in the contract’s words', async () => {
      const url = '/api/processing/tasks/settlement?year=2024&month=1';
      expect((await t.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
      expect((await post(url, {}, AUDIT)).statusCode).toBe(403);
      expect((await get(url, AUDIT)).statusCode).toBe(403);
      expect((await post('/api/processing/tasks/settlement?year=2024&month=13', {})).statusCode).toBe(400);
      expect((await post('/api/processing/tasks/settlement?month=1', {})).statusCode).toBe(400);
      expect((await post('/api/processing/tasks/not-a-procedure?year=2024&month=1', {})).statusCode).toBe(400);
      const mismatch = await post(`${url}&procedureName=combine`, {});
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json().message).toContain('does not match');
      const destinations = await post(url, { destinations: [{ type: 'EmailAddress', address: 'a@b.no' }] });
      expect(destinations.statusCode).toBe(400);
      expect(destinations.json().message).toContain('destinations belong to report tasks');
      // A log-only procedure is not run.
      expect((await post('/api/processing/tasks/reported-train-consumption?year=2024&month=1', {})).statusCode).toBe(
        400,
      );
    });
  });

  describe('POST /processing/tasks/batch/{procedure}', () => {
    it('starts one run per task', async () => {
      const response = await post('/api/processing/tasks/batch/annual-distribution', [
        { year: 2023, month: 3 },
        {
          year: 2023,
          month: 4,
          zoneId: 'UTC',
          refs: [{ uuid: organisation, type: 'Organisation' }],
        },
      ]);
      expect(response.statusCode, response.body).toBe(200);
      const started = results.parse(response.json());
      expect(started.map((r) => Date.parse(r.periodStart))).toEqual([
        Date.parse('2023-02-28T23:00:00Z'),
        Date.parse('2023-04-01T00:00:00Z'),
      ]);
      expect(started[1]!.entityRefs).toHaveLength(1);
      for (const r of started) expect((await waitForRun(t.database, r.jobId!)).status).toBe('success');
    });

    it('refuses the whole batch when two tasks cover the same period, and bounds its length', async () => {
      const response = await post('/api/processing/tasks/batch/annual-distribution', [
        { year: 2023, month: 5 },
        { year: 2023, month: 5 },
      ]);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Tasks 1 and 2 cover the same period');
      const find = await post('/api/eventlog/procedure-result/findBy?procedureName=annual-distribution', {});
      expect(find.json().totalElements).toBe(2);
      const tooMany = Array.from({ length: 25 }, (_, i) => ({ year: 2000 + i, month: 1 }));
      expect((await post('/api/processing/tasks/batch/annual-distribution', tooMany)).statusCode).toBe(400);
      expect((await post('/api/processing/tasks/batch/annual-distribution', [])).statusCode).toBe(400);
      expect(
        (await post('/api/processing/tasks/batch/annual-distribution', [{ year: 2023, month: 6 }], AUDIT)).statusCode,
      ).toBe(403);
    });
  });

  describe('set-settlement-procedure-to-failure', () => {
    const url = (id: number) => `/api/processing/tasks/set-settlement-procedure-to-failure/${id}`;

    it('sets a finished settlement result to failure with the message, once', async () => {
      const result = await settle(2);
      const response = await post(url(result.id), { message: 'Wrong prices' });
      expect(response.statusCode, response.body).toBe(200);
      expect(procedureResultSchema.parse(response.json())).toMatchObject({
        status: 'failure',
        message: 'Wrong prices',
      });
      const again = await post(url(result.id), {});
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('A failure settlement result cannot be set to failure');
    });

    it('a run under way set to failure ends as failure, not success', async () => {
      // The operator's call lands while the run's day is in flight. (A gate on the request would
      // deadlock PGlite's one session, held by the chunk's transaction: the chunk makes the same
      // service call the route makes, in its own transaction.)
      stopInFlight = true;
      try {
        const response = await post('/api/processing/tasks/settlement?year=2024&month=9', {});
        const result = procedureResultSchema.parse(response.json());
        const run = await waitForRun(t.database, result.jobId!, { until: ['success', 'failure', 'dead'] });
        expect(run).toMatchObject({ status: 'failure', message: 'Stopped by the operator' });
        const find = await post('/api/eventlog/procedure-result/findBy?procedureName=settlement&size=100', {});
        const stored = (find.json().content as ProcedureResult[]).find((r) => r.id === result.id);
        expect(stored).toMatchObject({ status: 'failure', message: 'Stopped by the operator' });
      } finally {
        stopInFlight = false;
      }
    });

    it('refuses other procedures, unknown and other areas’ results, audit roles', async () => {
      const find = await post('/api/eventlog/procedure-result/findBy?procedureName=profile', {});
      const profile = find.json().content[0] as ProcedureResult;
      expect((await post(url(profile.id), {})).json().message).toBe(
        `Procedure result ${profile.id} is not a settlement result`,
      );
      const settlement = await settle(3);
      expect((await post(url(settlement.id), {}, AUDIT)).statusCode).toBe(403);
      expect((await post(url(settlement.id), {}, RUNNER, 'sweden')).statusCode).toBe(400);
      expect((await post(url(999_999), {})).statusCode).toBe(400);
      expect((await post('/api/processing/tasks/set-settlement-procedure-to-failure/abc', {})).statusCode).toBe(400);
    });
  });

  describe('approve-procedure-results and saveProcedureResult/save', () => {
    const approve = (ids: number[], query = '', username = RUNNER) =>
      post(`/api/eventlog/procedure-result/approve-procedure-results${query}`, ids, username);
    const refs = () => [{ uuid: otherOrganisation, type: 'Organisation' }];

    it('approves a success; a second approval of the same scope is refused unless the first becomes corrected', async () => {
      const first = await settle(4, refs());
      const response = await approve([first.id], '?splitTypeName=organisation');
      expect(response.statusCode, response.body).toBe(200);
      expect(results.parse(response.json())[0]).toMatchObject({
        id: first.id,
        status: 'approved',
        message: `Approved by ${RUNNER} (split organisation)`,
      });

      const second = await settle(4, refs());
      const refused = await approve([second.id]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        code: 'approved-settlement-exists',
        message: 'Approved settlement already exists for the area or organisation',
      });
      // The detail names the procedure and result in the way and how to mark it corrected.
      const detail = refused.json<{ detail: string }>().detail;
      expect(detail).toContain(`Result ${first.id} of settlement for ${first.periodStart}`);
      expect(detail).toContain(`(the same entity) is approved`);
      expect(detail).toContain(`To approve result ${second.id} in its place`);
      expect(detail).toContain('updatePreviouslyApprovedToCorrected=true');
      // Another scope (other refs) of the same month is no conflict.
      const other = await settle(5);
      expect((await approve([other.id])).statusCode).toBe(200);

      const corrected = await approve([second.id], '?updatePreviouslyApprovedToCorrected=true');
      expect(corrected.statusCode, corrected.body).toBe(200);
      const find = await post('/api/eventlog/procedure-result/findBy?procedureName=settlement&size=100', {});
      const byId = new Map((find.json().content as ProcedureResult[]).map((r) => [r.id, r.status]));
      expect(byId.get(first.id)).toBe('corrected');
      expect(byId.get(second.id)).toBe('approved');
      // The corrected result no longer says who approved it.
      const firstNow = (find.json().content as ProcedureResult[]).find((r) => r.id === first.id)!;
      expect(firstNow.message).toMatch(
        new RegExp(
          `^Corrected by ${RUNNER} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC: result ${second.id} approved in its place$`,
        ),
      );
    }, 120_000);

    it('approves only success results, and refuses audit roles and bad input', async () => {
      const result = await settle(6);
      await post(`/api/processing/tasks/set-settlement-procedure-to-failure/${result.id}`, {});
      const refused = await approve([result.id]);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(`Only a successful result can be approved: ${result.id} is failure`);
      expect((await approve([999_999])).json().message).toBe('Unknown procedure result 999999');
      expect((await approve([result.id], '', AUDIT)).statusCode).toBe(403);
      expect((await approve([])).statusCode).toBe(400);
      expect((await approve([result.id], '?updatePreviouslyApprovedToCorrected=maybe')).statusCode).toBe(400);
    });

    it('saves a verdict and a comment; success only takes an approved result back', async () => {
      const save = (body: object, username = RUNNER) =>
        post('/api/eventlog/procedure-result/saveProcedureResult/save', body, username);
      const result = await settle(8);
      expect((await approve([result.id])).statusCode).toBe(200);
      const unapproved = await save({ id: result.id, status: 'success', message: 'Unapproved: prices change' });
      expect(unapproved.statusCode, unapproved.body).toBe(200);
      expect(unapproved.json()).toMatchObject({ status: 'success', message: 'Unapproved: prices change' });
      const invalid = await save({ id: result.id, status: 'invalid' });
      expect(invalid.json()).toMatchObject({ status: 'invalid', message: 'Unapproved: prices change' });
      const back = await save({ id: result.id, status: 'success' });
      expect(back.statusCode).toBe(400);
      expect(back.json().message).toBe(`Only an approved result can be set back to success (${result.id} is invalid)`);
      expect((await save({ id: result.id, message: null })).json()).toMatchObject({ status: 'invalid', message: null });
      expect((await save({ id: result.id })).statusCode).toBe(400);
      expect((await save({ id: result.id, status: 'approved' })).statusCode).toBe(400);
      expect((await save({ id: result.id, status: 'invalid' }, AUDIT)).statusCode).toBe(403);
      expect((await save({ id: 999_999, status: 'invalid' })).statusCode).toBe(400);
    });
  });

  describe('POST /eventlog/procedure-result/settledConsumption/findByProcedureResultIds', () => {
    const ORG_A = '00000000-0000-4000-8000-00000000000a';
    const ORG_B = '00000000-0000-4000-8000-00000000000b';
    const UNIT = '00000000-0000-4000-8000-0000000000c1';

    it('sums consumed minus regenerated per result and organisation over the result’s period', async () => {
      // Allocation results (combine) of October and November 2024 in Oslo; a settlement result sums its own lines
      // instead (modules/settlement/settlement.test.ts).
      const allocationResult = async (refs: string[], period: [string, string]) => {
        const [row] = await t.allAreas.query<{ id: number }>(
          `INSERT INTO procedure_result (tenant, procedure_name, status, period_start, period_end, username, entity_refs, ref_uuids)
           VALUES ($1, 'combine', 'success', $4, $5, 'test', $2::jsonb, $3::uuid[])
           RETURNING id::int AS id`,
          [t.areaUuid('norway'), JSON.stringify(refs.map((uuid) => ({ uuid, type: 'Organisation' }))), refs, ...period],
        );
        return { id: row!.id };
      };
      const result = await allocationResult([], ['2024-09-30T22:00:00Z', '2024-10-31T23:00:00Z']);
      const limited = await allocationResult([ORG_B], ['2024-10-31T23:00:00Z', '2024-11-30T23:00:00Z']);
      const norway = t.areaUuid('norway');
      const sweden = t.areaUuid('sweden');
      // October 2024 in Oslo is [30 Sep 22:00 UTC, 31 Oct 23:00 UTC); a record counts by its period end.
      const rows: [string, string, string, number, number][] = [
        [norway, '2024-09-30T22:05:00Z', ORG_A, 10, 1], // in
        [norway, '2024-10-15T12:00:00Z', ORG_A, 5.5, 0], // in
        [norway, '2024-10-31T23:00:00Z', ORG_B, 3, 0.5], // in: the last record ends at the period's end
        [norway, '2024-09-30T22:00:00Z', ORG_A, 100, 0], // out: ends at the period's start
        [norway, '2024-11-10T12:00:00Z', ORG_B, 7, 2], // November
        [sweden, '2024-10-15T12:00:00Z', ORG_A, 1000, 0], // another area
      ];
      for (const [i, [tenant, end, org, consumed, regenerated]] of rows.entries()) {
        await insertAllocatedRecord(t.allAreas, {
          tenant,
          consumptionPoint: `00000000-0000-4000-8000-0000000001${String(i).padStart(2, '0')}`,
          periodEnd: end,
          tractionUnit: UNIT,
          consumed,
          regenerated,
          category: 'train-run',
          organisation: org,
        });
      }
      const response = await post('/api/eventlog/procedure-result/settledConsumption/findByProcedureResultIds', [
        result.id,
        limited.id,
        999_999,
      ]);
      expect(response.statusCode, response.body).toBe(200);
      expect(z.array(settledConsumptionSchema).parse(response.json())).toEqual([
        {
          procedureResultId: result.id,
          organisation: { uuid: ORG_A, type: 'Organisation' },
          totalSettledConsumption: 14.5,
        },
        {
          procedureResultId: result.id,
          organisation: { uuid: ORG_B, type: 'Organisation' },
          totalSettledConsumption: 2.5,
        },
        {
          procedureResultId: limited.id,
          organisation: { uuid: ORG_B, type: 'Organisation' },
          totalSettledConsumption: 5,
        },
      ]);
      // Audit roles read; another area finds nothing of these results.
      const audit = await post(
        '/api/eventlog/procedure-result/settledConsumption/findByProcedureResultIds',
        [result.id],
        AUDIT,
      );
      expect(audit.statusCode).toBe(200);
      expect(audit.json()).toHaveLength(2);
      const other = await post(
        '/api/eventlog/procedure-result/settledConsumption/findByProcedureResultIds',
        [result.id],
        RUNNER,
        'sweden',
      );
      expect(other.json()).toEqual([]);
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/eventlog/procedure-result/settledConsumption/findByProcedureResultIds',
            payload: [1],
          })
        ).statusCode,
      ).toBe(401);
      expect(
        (await post('/api/eventlog/procedure-result/settledConsumption/findByProcedureResultIds', [], 'consumer'))
          .statusCode,
      ).toBe(400);
      expect(
        (await post('/api/eventlog/procedure-result/settledConsumption/findByProcedureResultIds', ['x'])).statusCode,
      ).toBe(400);
    });
  });
});
