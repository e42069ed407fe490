import { COUNTRY_AREA_NAMES } from '@railwatt/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { openTestDatabase } from '../test/database.js';
import { seedMissingContracts } from './administration.js';
import { areaUuid } from './areas.js';
import { SEED_COUNTRIES } from './fleet.js';

/**
 * Issue 18 item 5: the demo's contracts cover every price area its paying organisations trade in,
 * in a new database and in one seeded when the demo had a contract in the first price area alone.
 */
describe('demo contracts', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase({ seeders: ['areas', 'users', 'fleet', 'infrastructure', 'administration'] });
  });
  afterAll(async () => database?.close());

  /** Per area: paying organisations x price areas without exactly one current contract. */
  const uncovered = () =>
    database.query<{ area: string; organisation: string; price_area: string; contracts: number }>(
      `SELECT o.tenant::text AS area, o.name AS organisation, p.name AS price_area,
              (SELECT count(*)::int FROM entity_segment c
                WHERE c.tenant = o.tenant AND c.type = 'contract' AND c.superseded_at IS NULL
                  AND c.attributes->>'organisationRef' = o.entity_uuid::text
                  AND c.attributes->>'priceAreaRef' = p.entity_uuid::text) AS contracts
         FROM entity_segment o JOIN entity_segment p ON p.tenant = o.tenant AND p.type = 'pricearea' AND p.superseded_at IS NULL
        WHERE o.type = 'organisation' AND o.superseded_at IS NULL AND o.attributes->>'orgId' = ANY($1::text[])`,
      [SEED_COUNTRIES.flatMap((c) => [...c.rus, ...c.keepers].map((o) => o.orgId))],
    );

  it('gives every railway undertaking and vehicle keeper one contract in every price area of its country', async () => {
    const all = await uncovered();
    expect(new Set(all.map((r) => r.area)).size).toBe(COUNTRY_AREA_NAMES.length);
    expect(all.filter((r) => r.contracts !== 1)).toEqual([]);
    // Norway trades in NO1 to NO5.
    const norway = all.filter((r) => r.area === areaUuid('norway'));
    expect([...new Set(norway.map((r) => r.price_area))].sort()).toEqual(['NO1', 'NO2', 'NO3', 'NO4', 'NO5']);
  });

  it('adds the contracts an area seeded with the first price area alone lacks, once', async () => {
    const norway = areaUuid('norway');
    // A database of the earlier demo: Norway's contracts beyond each railway undertaking's first.
    const removed = await database.query<{ uuid: string }>(
      `DELETE FROM entity_segment WHERE tenant = $1 AND type = 'contract' AND name LIKE '%, NO_' RETURNING entity_uuid AS uuid`,
      [norway],
    );
    await database.query(`DELETE FROM entity_latest WHERE entity_uuid = ANY($1::uuid[])`, [removed.map((r) => r.uuid)]);
    await database.query(`DELETE FROM entity WHERE uuid = ANY($1::uuid[])`, [removed.map((r) => r.uuid)]);
    expect(removed.length).toBeGreaterThan(10);
    expect((await uncovered()).filter((r) => r.contracts !== 1).length).toBeGreaterThan(0);

    expect(await seedMissingContracts(database)).toBe(removed.length);
    expect((await uncovered()).filter((r) => r.contracts !== 1)).toEqual([]);
    expect(await seedMissingContracts(database)).toBe(0);
  });
});
