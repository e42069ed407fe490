import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { areaUuid } from '../../seed/areas.js';
import { openTestDatabase } from '../../test/database.js';
import { rows } from '../domain/sql.js';
import { insertSums, recordHour } from './allocated-energy.js';

const NORWAY = areaUuid('norway');
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A small deterministic generator (mulberry32): the same records on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * insertSums (allocated-energy.ts) keeps one row per island of records 5 minutes apart: summed by a
 * hash aggregate where a point's group in an hour is one island, ranked where it has gaps. Against
 * the definition itself (every record ranked, `period_end - 5 min x rank` naming its island) over
 * records with gaps, payers taking turns inside an hour, NULL keys, and period ends off the 5-minute
 * grid (a file that sent 10:07): the same rows, the same sums.
 */
describe('allocation sums by island', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas'] });
  });
  afterAll(async () => database?.close());

  it('writes the islands the ranking defines, with and without gaps', async () => {
    const next = random(19);
    const records: string[] = [];
    for (let cp = 1; cp <= 6; cp++) {
      for (let step = 1; step <= 72; step++) {
        if (next() < 0.1) continue; // a gap
        const offGrid = cp === 6 && next() < 0.3 ? 120 : 0;
        const end = new Date(Date.UTC(2026, 9, 1, 5) + step * 300_000 + offGrid * 1000).toISOString();
        const payer = next() < 0.2 ? 2 : 1; // another payer now and then, inside an hour
        const run = cp === 3 ? 'NULL' : String(payer * 10);
        const grid = cp === 4 ? 'NULL' : `'${uuid(100)}'::uuid`;
        records.push(
          `('${uuid(cp)}'::uuid, '${end}'::timestamptz, '${uuid(50 + cp)}'::uuid, ${grid}, '${uuid(200)}'::uuid, ` +
            `${(next() * 10).toFixed(3)}::numeric, ${next() < 0.5 ? 'NULL' : '0.5'}::numeric, ` +
            `'train-run', ${run}::bigint, '${uuid(300 + payer)}'::uuid, 'ru')`,
        );
      }
    }
    // Off the grid and yet spanning (count - 1) x 5 minutes: 05:05, 05:12, 05:15 are two islands.
    for (const end of ['05:05', '05:12', '05:15']) {
      records.push(
        `('${uuid(7)}'::uuid, '2026-10-01T${end}:00Z'::timestamptz, '${uuid(57)}'::uuid, NULL, NULL, ` +
          `1::numeric, NULL::numeric, 'train-run', 10::bigint, '${uuid(301)}'::uuid, 'ru')`,
      );
    }
    const src = sql.raw(`WITH src AS (SELECT * FROM (VALUES ${records.join(',\n')}) AS v(cp, period_end, unit,
      grid_area_uuid, price_area_uuid, active_consumed, active_regenerated, category, run_id, organisation_uuid, payer))`);
    const keys = sql.raw('cp, hour, category, organisation_uuid, payer, unit, run_id, grid_area_uuid, price_area_uuid');
    const expected = await rows<Record<string, unknown>>(
      database.db,
      sql`${src} SELECT ${keys}, sum(coalesce(active_consumed, 0))::text AS consumed, sum(coalesce(active_regenerated, 0))::text AS regenerated,
                 count(*)::int AS records, min(period_end) AS first_end, max(period_end) AS last_end
            FROM (SELECT y.*, y.period_end - interval '5 minutes' * row_number() OVER (
                           PARTITION BY ${keys} ORDER BY y.period_end) AS island
                    FROM (SELECT s.*, ${recordHour(sql`s.period_end`)} AS hour FROM src s) y) z
           GROUP BY ${keys}, island
           ORDER BY cp, first_end, organisation_uuid`,
    );
    const [written] = await rows<{ n: number }>(
      database.db,
      sql`${src}, written AS (${insertSums(NORWAY, sql`src`, 7)})
          SELECT count(*)::int AS n FROM written`,
    );
    const actual = await rows<Record<string, unknown>>(
      database.db,
      sql`SELECT consumption_point_uuid AS cp, hour_start AS hour, category, organisation_uuid, payer,
                 traction_unit_uuid AS unit, train_run_id AS run_id, grid_area_uuid, price_area_uuid,
                 active_consumed::text AS consumed, active_regenerated::text AS regenerated, records,
                 first_period_end AS first_end, last_period_end AS last_end
            FROM allocated_energy_hourly WHERE tenant = ${NORWAY}::uuid AND procedure_result_id = 7
           ORDER BY cp, first_end, organisation_uuid`,
    );
    // Both paths met: islands split by gaps or turns, and hours that are one island.
    expect(expected.length).toBeGreaterThan(6 * 6);
    expect(expected.some((r) => Number(r.records) === 12)).toBe(true);
    expect(written!.n).toBe(expected.length);
    expect(actual.map((r) => ({ ...r, consumed: Number(r.consumed), regenerated: Number(r.regenerated) }))).toEqual(
      expected.map((r) => ({ ...r, consumed: Number(r.consumed), regenerated: Number(r.regenerated) })),
    );
  });
});
