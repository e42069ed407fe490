import type { CountryAreaName } from '@railwatt/contracts';
import type { TrainRunFileSpec } from '../formats/trainrun/trainrun-generator.js';
import { buildAdministration } from './administration.js';
import { buildCountry, SEED_COUNTRIES } from './fleet.js';
import { RAILWAY_PLACES } from './railway-places.js';

/**
 * Train runs that fit a country's demo data: its railway undertakings (by orgId), the traffic
 * categories and train profiles of seed/administration.ts, the traction units of seed/fleet.ts
 * (active ones, with a plausible gross weight) and the main lines of seed/railway-places.ts as
 * routes. Feed it to `generateTrainRunFile` (formats/trainrun) for a demo file or a benchmark; the
 * same arguments always give the same file. Not a seeder: train runs arrive as files, each with a
 * data-log entry, so they come through the intake like a railway undertaking's upload.
 */
export function demoTrainRunSpec(
  country: CountryAreaName,
  options: { days: readonly string[]; runsPerDay: number; unitsPerCountry?: number },
): TrainRunFileSpec {
  const seed = SEED_COUNTRIES.find((c) => c.kind === country)!;
  const fleet = buildCountry(seed, options.unitsPerCountry ?? 40);
  const administration = buildAdministration(country, []);
  const names = (type: string) => [
    ...new Set(administration.segments.filter((s) => s.type === type).map((s) => s.name)),
  ];
  const units = new Map<string, number>();
  for (const s of fleet.segments) {
    if (s.type !== 'tractionunit' || !s.active) continue;
    const evn = String(s.attributes.evn);
    // Multiple units (EMU) weigh more than a locomotive; a steady spread for the demo.
    units.set(evn, (evn.startsWith('94') ? 180 : 84) + (Number(evn.slice(8, 11)) % 7) * 4);
  }
  return {
    railwayUndertakings: seed.rus.map((ru) => ru.orgId),
    trafficCategories: names('trafficcategory'),
    trainProfiles: names('trainprofile'),
    units: [...units].map(([evn, grossWeight]) => ({ evn, grossWeight })),
    days: options.days,
    routes: RAILWAY_PLACES[country].lines.map((l) => ({ places: [l.from, l.to], km: l.km })),
    runsPerDay: options.runsPerDay,
    sender: seed.im.orgId,
  };
}
