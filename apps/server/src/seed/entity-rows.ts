import { createHash } from 'node:crypto';
import type { CountryAreaName } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { insertEntities, insertSegments, type SegmentInsert } from '../modules/domain/repository.js';
import { rows, type Executor } from '../modules/domain/sql.js';
import { areaUuid } from './areas.js';

/** Who the demo data says wrote it. */
export const SEEDER = 'seed';
export const SEED_START = '2015-01-01T00:00:00.000Z';
export const FOREVER = '2070-01-01T00:00:00.000Z';

/** Deterministic uuid (v5 layout) from a key, so re-runs and tests agree. */
export function seedUuid(key: string): string {
  const h = createHash('sha1').update(`railwatt:${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export type SeedSegment = Omit<SegmentInsert, 'id' | 'lastModified' | 'lastModifiedBy'>;

/**
 * The entity and segment rows of one country's demo data. `key('org:vy')` is the entity's uuid in
 * that country (`seedUuid('norway:org:vy')`), so seeders refer to each other's entities by key.
 */
export class CountryRows {
  readonly entities: { uuid: string; type: string }[] = [];
  readonly segments: SeedSegment[] = [];
  private readonly known = new Set<string>();

  constructor(readonly country: CountryAreaName) {}

  key(key: string): string {
    return seedUuid(`${this.country}:${key}`);
  }

  add(
    uuid: string,
    type: string,
    name: string,
    attributes: Record<string, unknown>,
    options: { start?: string; end?: string; state?: string } = {},
  ): string {
    const { start = SEED_START, end = FOREVER, state = 'ACTIVE' } = options;
    if (!this.known.has(uuid)) {
      this.known.add(uuid);
      this.entities.push({ uuid, type });
    }
    this.segments.push({
      entityUuid: uuid,
      type,
      name,
      start,
      end,
      attributes,
      state,
      active: state === 'ACTIVE' || state === 'APPROVED_FOR_BILLING',
      comments: null,
    });
    return uuid;
  }
}

/** Inserts one country's rows into its area (two set-based statements). */
export async function insertCountryRows(ex: Executor, data: CountryRows): Promise<void> {
  const tenant = areaUuid(data.country);
  await insertEntities(
    ex,
    tenant,
    data.entities.map((e) => ({ ...e, createdBy: SEEDER })),
  );
  await insertSegments(
    ex,
    tenant,
    SEEDER,
    data.segments.map((s, i) => ({ ...s, id: -(i + 1), lastModified: null, lastModifiedBy: null })),
  );
}

/**
 * Runs `build` for every country whose marker entity is not stored yet and inserts the rows in one
 * transaction: a seeder is idempotent (it runs at every start) and a half-seeded country cannot exist.
 */
export async function seedCountries(
  database: Database,
  countries: readonly CountryAreaName[],
  marker: string,
  build: (country: CountryAreaName) => CountryRows,
  afterInsert?: (ex: Executor, country: CountryAreaName) => Promise<void>,
): Promise<number> {
  let inserted = 0;
  await database.db.transaction(async (tx) => {
    const markers = countries.map((c) => seedUuid(`${c}:${marker}`));
    const present = new Set(
      (
        await rows<{ uuid: string }>(tx, sql`SELECT uuid FROM entity WHERE uuid = ANY(${sql.param(markers)}::uuid[])`)
      ).map((r) => r.uuid),
    );
    for (const country of countries) {
      if (present.has(seedUuid(`${country}:${marker}`))) continue;
      const data = build(country);
      await insertCountryRows(tx, data);
      await afterInsert?.(tx, country);
      inserted += data.entities.length;
    }
  });
  return inserted;
}
