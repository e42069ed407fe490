import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { procedureRunQueue } from '../../jobs/procedure-run.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import type { RunQueue } from '../processing/service.js';
import { aggregationDays, runScheduledAggregations } from './aggregation-schedule.js';

describe('the daily first and second metered-energy-aggregation', () => {
  it('picks the day daysBackFirstAggregation and the day daysBackSecondAggregation before today', () => {
    expect(aggregationDays('2026-03-02', { daysBackFirstAggregation: 5, daysBackSecondAggregation: 40 })).toEqual([
      { aggregation: 'FIRST', day: '2026-02-25' },
      { aggregation: 'SECOND', day: '2026-01-21' },
    ]);
  });

  describe('a round', () => {
    let t: TestApp;
    const queued: number[] = [];
    beforeAll(async () => {
      t = await createTestApp({ jobs: {} });
      // Sweden configured the procedure; no other area did.
      const res = await t.callAs(
        'erex-administrator',
        {
          method: 'POST',
          url: '/api/domain/processing-config/metered-energy-aggregation',
          payload: {
            validFrom: '2025-01-01T00:00:00Z',
            value: { daysBackFirstAggregation: 10, daysBackSecondAggregation: 45 },
          },
        },
        'sweden',
      );
      expect(res.statusCode, res.body).toBe(200);
    });
    afterAll(async () => t?.close());

    it('takes the aggregation option on a metered-energy-aggregation run only, FIRST or SECOND', async () => {
      const run = (procedure: string, aggregation: string) =>
        t.callAs('erex-settlement-operator', {
          method: 'POST',
          url: `/api/processing/${procedure}/run?zoneId=Europe/Oslo&aggregation=${aggregation}`,
          payload: { timeRange: { start: '2024-01-01T00:00:00Z', end: '2024-01-02T00:00:00Z' } },
        });
      const other = await run('combine', 'FIRST');
      expect(other.statusCode).toBe(400);
      expect(other.json()).toMatchObject({ message: 'combine takes no aggregation option' });
      expect((await run('metered-energy-aggregation', 'THIRD')).statusCode).toBe(400);
    });

    it('starts, in the areas that configured the procedure, the FIRST and the SECOND run of their days', async () => {
      const run = procedureRunQueue(t.app.jobs);
      const queue: RunQueue = (ctx, id) => {
        queued.push(id);
        return run(ctx, id);
      };
      // 00:30 in Stockholm on 26 November is still the 25th in UTC: the area's day counts.
      const round = await runScheduledAggregations(
        { database: t.database, queue, log: pino({ level: 'silent' }) },
        new Date('2026-11-25T23:30:00Z'),
      );
      expect(round.map((r) => [r.area, r.aggregation, r.day, r.result?.periodStart, r.result?.periodEnd])).toEqual([
        ['sweden', 'FIRST', '2026-11-16', '2026-11-15T23:00:00.000Z', '2026-11-16T23:00:00.000Z'],
        ['sweden', 'SECOND', '2026-10-12', '2026-10-11T22:00:00.000Z', '2026-10-12T22:00:00.000Z'],
      ]);
      expect(queued).toEqual(round.map((r) => r.result!.id));
      const stored = await t.allAreas.query<{ id: number; options: unknown; username: string; cause: string }>(
        `SELECT id::int AS id, run_options AS options, username, cause FROM procedure_result
          WHERE id = ANY($1::bigint[]) ORDER BY id`,
        [queued],
      );
      expect(stored).toEqual([
        { id: queued[0], options: { aggregation: 'FIRST' }, username: 'system', cause: 'the daily first aggregation' },
        {
          id: queued[1],
          options: { aggregation: 'SECOND' },
          username: 'system',
          cause: 'the daily second aggregation',
        },
      ]);
    });
  });
});
