import type { ParsedTrainRun } from '../timeseries/format.js';
import { TRAIN_RUN_NAMESPACE } from './trainrun-format.js';

/**
 * Writes train-run files (docs/formats/train-runs.md): `trainRunsXml` for any runs, and
 * `generateTrainRunFile`, a deterministic generator of valid files from a fleet, days and routes
 * for demo data, tests and benchmarks. The same spec always gives the same bytes.
 */

/** A run as a file states it (ParsedTrainRun without where it was read). */
export type TrainRunEntry = Omit<ParsedTrainRun, 'location'>;

const escape = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const attrs = (pairs: [string, string | number | undefined][]): string =>
  pairs
    .filter((pair): pair is [string, string | number] => pair[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escape(String(v))}"`)
    .join('');

/** One file of runs, in the order given. */
export function trainRunsXml(runs: readonly TrainRunEntry[], options: { sender?: string } = {}): string {
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<TrainRuns xmlns="${TRAIN_RUN_NAMESPACE}"${attrs([['sender', options.sender]])}>`,
  ];
  for (const run of runs) {
    const identity = attrs([
      ['action', run.action],
      ['trainNumber', run.trainNumber],
      ['operatingDay', run.operatingDay],
      ['railwayUndertaking', run.railwayUndertaking],
    ]);
    if (run.action === 'delete') {
      out.push(`  <TrainRun${identity}/>`);
      continue;
    }
    const rest = attrs([
      ['trafficCategory', run.trafficCategory],
      ['trainProfile', run.trainProfile],
      ['departure', run.departure],
      ['arrival', run.arrival],
      ['grossTonneKm', run.grossTonneKm],
    ]);
    out.push(`  <TrainRun${identity}${rest}>`, '    <Route>');
    for (const place of run.route) out.push(`      <Place${attrs([['name', place]])}/>`);
    out.push('    </Route>', '    <Composition>');
    for (const v of run.composition)
      out.push(
        `      <Vehicle${attrs([
          ['position', v.position],
          ['evn', v.evn],
          ['grossWeight', v.grossWeightTonnes],
        ])}/>`,
      );
    out.push('    </Composition>', '  </TrainRun>');
  }
  out.push('</TrainRuns>', '');
  return out.join('\n');
}

export interface TrainRunFileSpec {
  /** Railway undertakings by orgId or name; runs take them in turn. */
  railwayUndertakings: readonly string[];
  trafficCategories: readonly string[];
  trainProfiles?: readonly string[];
  /** Traction units (EVN and gross weight in tonnes); each run is hauled by one, taken in turn. */
  units: readonly { evn: string; grossWeight: number }[];
  /** Hauled vehicles (wagons, coaches): each run takes `wagonsPerRun` of them in turn. */
  wagons?: readonly { evn: string; grossWeight: number }[];
  wagonsPerRun?: number;
  /** Operating days (YYYY-MM-DD). */
  days: readonly string[];
  /** Routes with their length in km (for the times and the gross tonne-km). */
  routes: readonly { places: readonly string[]; km: number }[];
  runsPerDay: number;
  /** Train numbers count up from here each day (default 1001). */
  firstTrainNumber?: number;
  sender?: string;
}

/**
 * The runs of a spec: run i of a day departs 04:00 UTC + i x 7 minutes (wrapping within 14 hours, so
 * it departs on its operating day in every European area), runs at 80 km/h, and states its gross
 * tonne-km as the composition's gross weight x the route's km.
 */
export function generateTrainRuns(spec: TrainRunFileSpec): TrainRunEntry[] {
  const runs: TrainRunEntry[] = [];
  const first = spec.firstTrainNumber ?? 1001;
  const wagonsPerRun = spec.wagons?.length ? (spec.wagonsPerRun ?? 0) : 0;
  let n = 0;
  for (const day of spec.days) {
    for (let i = 0; i < spec.runsPerDay; i++, n++) {
      const route = spec.routes[n % spec.routes.length]!;
      const unit = spec.units[n % spec.units.length]!;
      const vehicles = [unit];
      for (let w = 0; w < wagonsPerRun; w++) {
        const wagon = spec.wagons![(n * wagonsPerRun + w) % spec.wagons!.length]!;
        if (!vehicles.some((v) => v.evn === wagon.evn)) vehicles.push(wagon);
      }
      const departure = Date.parse(`${day}T04:00:00Z`) + ((i * 7) % (14 * 60)) * 60_000;
      const minutes = Math.max(1, Math.round((route.km / 80) * 60));
      const weight = vehicles.reduce((sum, v) => sum + v.grossWeight, 0);
      runs.push({
        action: 'input',
        trainNumber: String(first + i),
        operatingDay: day,
        railwayUndertaking: spec.railwayUndertakings[n % spec.railwayUndertakings.length]!,
        trafficCategory: spec.trafficCategories[n % spec.trafficCategories.length]!,
        trainProfile: spec.trainProfiles?.length ? spec.trainProfiles[n % spec.trainProfiles.length] : undefined,
        route: [...route.places],
        departure: new Date(departure).toISOString(),
        arrival: new Date(departure + minutes * 60_000).toISOString(),
        composition: vehicles.map((v, p) => ({ evn: v.evn, grossWeightTonnes: v.grossWeight, position: p + 1 })),
        grossTonneKm: Math.round(weight * route.km * 10) / 10,
      });
    }
  }
  return runs;
}

/** A valid train-run file of a spec (generateTrainRuns written by trainRunsXml). */
export function generateTrainRunFile(spec: TrainRunFileSpec): string {
  return trainRunsXml(generateTrainRuns(spec), { sender: spec.sender });
}
