import type { ReadContext, ServiceContext } from '../../context.js';
import { markDaysDue } from '../processing/due-days.js';
import type { ParsedTrainRun, Problem } from '../../formats/timeseries/format.js';
import {
  allocateRunIds,
  currentRuns,
  findByName,
  findOrganisations,
  findTractionUnits,
  insertRuns,
  insertVehicles,
  selectRuns,
  selectVehicles,
  supersedeRuns,
  type OrganisationMatch,
  type RunFilter,
  type RunInsert,
  type RunRow,
  type VehicleInsert,
  type VehicleRow,
} from './repository.js';

/**
 * Train runs of an area (docs/formats/train-runs.md): the store of a parsed file and the list that
 * train preprocessing, combine and estimation read. A file is stored whole or not at all: every
 * check runs before the first write and refusals come back as problems, never as a throw.
 *
 * Identity: (train number, operating day, railway undertaking), the RU resolved to its organisation
 * entity, so a run named once by orgId and once by name is the same run. An input of a run whose
 * current version exists is a duplicate; a correction or a delete needs a current, not deleted
 * version. A correction replaces the whole run. History is kept (migration 0120): the replaced
 * version is marked superseded by the file, a delete leaves a tombstone. Unknown EVNs do not refuse
 * the file: wagons are not in the fleet register, and an unknown traction unit is train
 * preprocessing's validation (DOMAIN.md step 2); the vehicle is kept without a traction unit and
 * the EVN comes back as a warning.
 */

export interface TrainRunStoreResult {
  /** Runs stored (inputs, corrections and deletes); 0 when there are problems. */
  stored: number;
  /** Why the file is refused; empty when it was stored. */
  problems: Problem[];
  /** What was stored but deserves a look: 'Unknown EVN x', once per EVN. */
  warnings: Problem[];
}

const RU_TYPE = 'RAILWAY_UNDERTAKING';

const distinct = (values: Iterable<string | undefined>): string[] =>
  [...new Set([...values].filter((v): v is string => v !== undefined))].sort();

/** How a message names a run: "train run 41 on 2026-10-01 of Vy Tog AS". */
const describeRun = (run: ParsedTrainRun, ru: string) => `train run ${run.trainNumber} on ${run.operatingDay} of ${ru}`;

/** The organisation a key names: by orgId first, then by name; an RU wins over another type. */
function pickOrganisation(matches: readonly OrganisationMatch[]): OrganisationMatch | undefined {
  const rank = (m: OrganisationMatch) => (m.byOrgId ? 0 : 2) + (m.isRu ? 0 : 1);
  return [...matches].sort((a, b) => rank(a) - rank(b))[0];
}

/**
 * Stores the runs of one file (`dataLogId`, its data-log entry) in the context's area. Runs in a
 * transaction of ctx.db (a savepoint when the caller's executor is one already), so nothing is
 * written when a statement fails; problems leave the database untouched.
 */
export async function storeTrainRuns(
  ctx: ServiceContext,
  runs: readonly ParsedTrainRun[],
  dataLogId: number,
): Promise<TrainRunStoreResult> {
  const tenant = ctx.tenant.uuid;
  return ctx.db.transaction(async (tx) => {
    const problems: Problem[] = [];
    const warnings: Problem[] = [];
    const fail = (run: ParsedTrainRun, message: string) => problems.push({ location: run.location, message });

    // Master data, one statement per kind for the whole file.
    const ruKeys = distinct(runs.map((r) => r.railwayUndertaking));
    const organisations = await findOrganisations(tx, tenant, ruKeys);
    const ruByKey = new Map(
      ruKeys.map((key) => [key, pickOrganisation(organisations.filter((o) => o.key === key))] as const),
    );
    const byName = async (type: 'trafficcategory' | 'trainprofile', names: string[]) =>
      new Map((await findByName(tx, tenant, type, names)).map((m) => [m.key, m.uuid]));
    const categories = await byName('trafficcategory', distinct(runs.map((r) => r.trafficCategory)));
    const profiles = await byName('trainprofile', distinct(runs.map((r) => r.trainProfile)));
    const evns = distinct(runs.flatMap((r) => r.composition.map((v) => v.evn)));
    const units = new Map((await findTractionUnits(tx, tenant, evns)).map((u) => [u.evn, u.uuid]));

    // Each run's identity and references; a run with a problem takes no further part.
    const resolved: { run: ParsedTrainRun; ru: OrganisationMatch; key: string }[] = [];
    const seen = new Map<string, ParsedTrainRun>();
    for (const run of runs) {
      const ru = ruByKey.get(run.railwayUndertaking);
      if (!ru) {
        fail(run, `Unknown railway undertaking ${run.railwayUndertaking}`);
        continue;
      }
      if (!ru.isRu) {
        fail(run, `Organisation ${ru.name} is not a railway undertaking (${RU_TYPE})`);
        continue;
      }
      let ok = true;
      if (run.action !== 'delete') {
        // The reader guarantees these; a run from elsewhere (a future API) gets the same answer.
        for (const field of ['trafficCategory', 'departure', 'arrival', 'grossTonneKm'] as const)
          if (run[field] === undefined) {
            fail(run, `Attribute ${field} is required`);
            ok = false;
          }
        if (run.route.length < 2 || run.composition.length === 0) {
          fail(run, 'A run needs a route of two places or more and a composition');
          ok = false;
        }
        if (run.trafficCategory !== undefined && !categories.has(run.trafficCategory)) {
          fail(run, `Unknown traffic category ${run.trafficCategory}`);
          ok = false;
        }
        if (run.trainProfile !== undefined && !profiles.has(run.trainProfile)) {
          fail(run, `Unknown train profile ${run.trainProfile}`);
          ok = false;
        }
      }
      const key = `${run.trainNumber}\u0000${run.operatingDay}\u0000${ru.uuid}`;
      const earlier = seen.get(key);
      if (earlier) {
        const line = earlier.location.line === undefined ? '' : ` (first at line ${earlier.location.line})`;
        fail(run, `The ${describeRun(run, ru.name)} appears more than once in the file${line}`);
        continue;
      }
      seen.set(key, run);
      if (ok) resolved.push({ run, ru, key });
    }

    // What is stored now decides whether each action applies.
    const current = await currentRuns(
      tx,
      tenant,
      resolved.map(({ run, ru }) => ({
        trainNumber: run.trainNumber,
        operatingDay: run.operatingDay,
        ruUuid: ru.uuid,
      })),
    );
    const currentAt = new Map(current.map((c) => [c.index, c]));
    const supersede: number[] = [];
    resolved.forEach(({ run, ru }, index) => {
      const stored = currentAt.get(index);
      const live = stored !== undefined && !stored.deleted;
      if (run.action === 'input' && live) {
        fail(run, `Duplicate train run: the ${describeRun(run, ru.name)} exists already (send a correction)`);
      } else if (run.action !== 'input' && !live) {
        const verb = run.action === 'correction' ? 'corrected' : 'deleted';
        const state = stored?.deleted ? 'has been deleted' : 'does not exist';
        fail(run, `The ${describeRun(run, ru.name)} ${state}, so it cannot be ${verb}`);
      } else if (stored) {
        supersede.push(stored.id);
      }
    });

    if (problems.length > 0) return { stored: 0, problems: sortByPlace(problems), warnings: [] };

    // Warnings: EVNs the fleet does not know (once each, at the first run that names it).
    const warned = new Set<string>();
    for (const { run } of resolved)
      for (const vehicle of run.composition)
        if (!units.has(vehicle.evn) && !warned.has(vehicle.evn)) {
          warned.add(vehicle.evn);
          warnings.push({ location: run.location, message: `Unknown EVN ${vehicle.evn}` });
        }

    // The writes: supersede, then the new versions and their vehicles (four statements).
    await supersedeRuns(tx, tenant, supersede, dataLogId);
    const ids = await allocateRunIds(tx, resolved.length);
    const inserts: RunInsert[] = [];
    const vehicles: VehicleInsert[] = [];
    resolved.forEach(({ run, ru }, i) => {
      const id = ids[i]!;
      const live = run.action !== 'delete';
      inserts.push({
        id,
        trainNumber: run.trainNumber,
        operatingDay: run.operatingDay,
        ruUuid: ru.uuid,
        trafficCategoryUuid: live && run.trafficCategory ? categories.get(run.trafficCategory)! : null,
        trainProfileUuid: live && run.trainProfile ? profiles.get(run.trainProfile)! : null,
        route: live ? run.route : [],
        departure: live ? (run.departure ?? null) : null,
        arrival: live ? (run.arrival ?? null) : null,
        grossTonneKm: live ? (run.grossTonneKm ?? null) : null,
        deleted: !live,
      });
      if (live)
        run.composition.forEach((v, n) =>
          vehicles.push({
            trainRunId: id,
            position: v.position ?? n + 1,
            evn: v.evn,
            tractionUnitUuid: units.get(v.evn) ?? null,
            grossWeight: v.grossWeightTonnes,
          }),
        );
    });
    await insertRuns(tx, tenant, dataLogId, inserts);
    await insertVehicles(tx, tenant, vehicles);
    // Their operating days are checked again by the nightly allocation (due-days.ts).
    await markDaysDue(
      tx,
      ctx.tenant,
      'train-preprocessing',
      inserts.map((r) => r.operatingDay),
    );
    return { stored: resolved.length, problems: [], warnings };
  });
}

/** Problems in file order (line, then column), as the data log lists them. */
function sortByPlace(problems: Problem[]): Problem[] {
  return problems
    .map((p, i) => ({ p, i }))
    .sort(
      (a, b) =>
        (a.p.location.line ?? 0) - (b.p.location.line ?? 0) ||
        (a.p.location.column ?? 0) - (b.p.location.column ?? 0) ||
        a.i - b.i,
    )
    .map(({ p }) => p);
}

export interface TrainRunVehicle {
  position: number;
  evn: string;
  /** The traction unit of this EVN when the run was stored; null for wagons and unknown EVNs. */
  tractionUnitUuid: string | null;
  grossWeightTonnes: number;
}

export interface TrainRun extends RunRow {
  composition: TrainRunVehicle[];
}

export type TrainRunFilter = RunFilter;

/**
 * The runs of the area whose operating day lies in [operatingDayFrom, operatingDayTo] (both
 * inclusive), with their compositions. By default the current, not deleted versions; with
 * `includeHistory` every version and tombstone (ordered by day, train number, RU, then as stored).
 */
export async function listTrainRuns(ctx: ReadContext, filter: TrainRunFilter): Promise<TrainRun[]> {
  const runs = await selectRuns(ctx.db, ctx.tenant.uuid, filter);
  const vehicles = await selectVehicles(
    ctx.db,
    ctx.tenant.uuid,
    runs.map((r) => r.id),
  );
  const byRun = new Map<number, VehicleRow[]>();
  for (const v of vehicles) {
    const list = byRun.get(v.trainRunId);
    if (list) list.push(v);
    else byRun.set(v.trainRunId, [v]);
  }
  return runs.map((run) => ({
    ...run,
    composition: (byRun.get(run.id) ?? []).map(({ trainRunId: _, ...v }) => v),
  }));
}
