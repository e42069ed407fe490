import { procedureResultPageSchema, procedureResultSchema, type ProcedureResult } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { waitForRun } from '../../test/jobs.js';

const RUNNER = 'erex-settlement-operator';
/** October 2026 in Amsterdam. */
const OCTOBER = { start: '2026-09-30T22:00:00Z', end: '2026-10-31T23:00:00Z' };

/**
 * The TPA settlement (the tpa- twins of the settlement pages, netherlands only): a settlement run
 * with tpa=true is a version of the TPA settlement, listed, approved and corrected apart from the
 * plain settlement's versions of the same month.
 */
describe('the TPA settlement', () => {
  let t: TestApp;
  const post = (url: string, payload: unknown, kind: 'netherlands' | 'norway' = 'netherlands') =>
    t.callAs(RUNNER, { method: 'POST', url, payload: payload as object }, kind);
  const run = async (tpa: boolean): Promise<ProcedureResult> => {
    const response = await post(`/api/processing/settlement/run?zoneId=Europe/Amsterdam${tpa ? '&tpa=true' : ''}`, {
      timeRange: OCTOBER,
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = procedureResultSchema.parse(response.json());
    await waitForRun(t.database, result.jobId!);
    return result;
  };
  const list = async (tpa: boolean | undefined) => {
    const response = await post(
      '/api/eventlog/procedure-result/findBy?procedureName=settlement&page=0&size=1000',
      tpa === undefined ? {} : { tpa },
    );
    expect(response.statusCode, response.body).toBe(200);
    return procedureResultPageSchema
      .parse(response.json())
      .content.map((r) => [r.id, r.status, r.runOptions?.tpa ?? false]);
  };
  const approve = async (id: number) => {
    const response = await post(
      '/api/eventlog/procedure-result/approve-procedure-results?updatePreviouslyApprovedToCorrected=true',
      [id],
    );
    expect(response.statusCode, response.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp({ jobs: {} });
  });
  afterAll(async () => t?.close());

  it('keeps the TPA settlement’s versions and approvals apart from the plain ones', async () => {
    const plain = await run(false);
    const tpa1 = await run(true);
    expect(tpa1.runOptions).toEqual({ tpa: true });
    await approve(plain.id);
    await approve(tpa1.id);
    // Approving the TPA version left the plain one approved.
    expect(await list(false)).toEqual([[plain.id, 'approved', false]]);
    expect(await list(true)).toEqual([[tpa1.id, 'approved', true]]);
    // A second TPA version, approved: the first TPA one is corrected, the plain one untouched.
    const tpa2 = await run(true);
    await approve(tpa2.id);
    expect(await list(true)).toEqual([
      [tpa2.id, 'approved', true],
      [tpa1.id, 'corrected', true],
    ]);
    expect(await list(false)).toEqual([[plain.id, 'approved', false]]);
    expect(await list(undefined)).toHaveLength(3);
  });

  it('refuses the tpa option outside the netherlands and for other procedures', async () => {
    const norway = await post(
      '/api/processing/settlement/run?zoneId=Europe/Oslo&tpa=true',
      { timeRange: OCTOBER },
      'norway',
    );
    expect(norway.statusCode).toBe(400);
    const other = await post('/api/processing/price-and-supply/run?zoneId=Europe/Amsterdam&tpa=true', {
      timeRange: OCTOBER,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ code: 'invalid_input' });
  });
});
