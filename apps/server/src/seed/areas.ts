import { COUNTRY_AREAS, type AreaKind } from '@railwatt/contracts';
import type { Database } from '../db/client.js';

/**
 * The settlement areas (tenants) with fixed uuids, so demo data, tokens and tests agree across
 * restarts and machines. The name is what users see; its lowercased, space-free form is the area kind.
 */
export interface SeedArea {
  uuid: string;
  name: string;
  kind: AreaKind;
  timeZone: string;
  settlementPartner: boolean;
}

const uuidFor = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;

const titleCase = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const SEED_AREAS: readonly SeedArea[] = [
  ...Object.entries(COUNTRY_AREAS).map(([kind, timeZone], i) => ({
    uuid: uuidFor(i + 1),
    name: titleCase(kind),
    kind: kind as AreaKind,
    timeZone,
    settlementPartner: true,
  })),
  { uuid: uuidFor(10), name: 'Exchange', kind: 'exchange', timeZone: 'Europe/Oslo', settlementPartner: true },
  {
    uuid: uuidFor(11),
    name: 'Administration',
    kind: 'administration',
    timeZone: 'Europe/Oslo',
    settlementPartner: true,
  },
];

export const areaUuid = (kind: AreaKind): string => {
  const area = SEED_AREAS.find((a) => a.kind === kind);
  if (!area) throw new Error(`No seed area of kind ${kind}`);
  return area.uuid;
};

/** Seeder: the settlement areas with their fixed uuids (idempotent; existing rows are left alone). */
export async function seedAreas(database: Database): Promise<void> {
  for (const area of SEED_AREAS) {
    await database.query(
      `INSERT INTO settlement_area (uuid, name, kind, time_zone, settlement_partner)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (uuid) DO NOTHING`,
      [area.uuid, area.name, area.kind, area.timeZone, area.settlementPartner],
    );
  }
}
