import { parseLocation, type VersionedEntity } from '@railwatt/contracts';
import type { MapMarker } from '../map';

/** The rows' locations ('lat,lon') as map markers named after the entity; rows without one are left out. */
export function markersOf(rows: readonly VersionedEntity[]): MapMarker[] {
  return rows.flatMap((row) => {
    const at = typeof row.location === 'string' ? parseLocation(row.location) : undefined;
    return at ? [{ id: row.uuid, lat: at[0], lon: at[1], label: row.name }] : [];
  });
}
