import {
  CEBD_SERIES,
  countryCurrency,
  nextPeriodStart,
  TIME_SERIES_TYPES,
  type EntityKind,
  type Resolution,
  type TimeSeriesTypeName,
} from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import {
  problemText,
  type IntakeFormat,
  type ParsedCebdBlock,
  type ParsedSeries,
  type ParsedTrainRun,
  type Problem,
} from '../../formats/timeseries/format.js';
import { sql } from 'drizzle-orm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { rows, type Executor } from '../domain/sql.js';
import { kindsFor, resolveIdentifiers, retypeFor, type ResolvedEntity } from './resolve.js';
import {
  ensureSeries,
  RecordBatch,
  seriesKeyOf,
  storeBatch,
  VALUE_BATCH,
  ValueBatch,
  type EnsuredMonths,
  type SeriesKey,
  type StoreCounts,
} from './store.js';

/**
 * The intake of one file (issue 8): a format module parses the bytes as a stream; identifiers are
 * resolved to the area's entities a batch at a time; values are stored in batches inside ONE
 * transaction, so a file lands whole or not at all. Any problem (from the parser, an unknown
 * entity, data received too late, a train-run rule) stops storing, parsing goes on to report up to
 * `maxProblems`, and the transaction is rolled back. The caller (the import job) writes the outcome
 * and the summaries into the file's data-log entry outside this transaction.
 */

export interface SeriesSummary {
  startTime: string;
  endTime: string;
  timeSeriesType: string;
  entityIdentifier: string;
  valuesCount: number;
  message: string | null;
}

export interface IntakeResult {
  status: 'OK' | 'REJECTED';
  text: string;
  problems: Problem[];
  summaries: SeriesSummary[];
  counts: StoreCounts;
  trainRuns: number;
}

export interface TrainRunStore {
  (
    ctx: ServiceContext,
    runs: ParsedTrainRun[],
    dataLogId: number,
  ): Promise<{ stored: number; problems: Problem[]; warnings?: Problem[] }>;
}

export interface IntakeOptions {
  dataLogId: number | null;
  /** Stop collecting after this many problems. Default 100. */
  maxProblems?: number;
  /** CEBD whose period ended more than this many days before `now` is refused as received too late. */
  maxDaysSinceObservation?: number | null;
  now?: Date;
  /** Stores the train runs of a file in the intake's transaction (modules/trainrun). */
  storeTrainRuns?: TrainRunStore;
  /** Most train runs one file may hold (they are stored together at the end). */
  maxTrainRuns?: number;
  /** Values per stored batch (store.ts valueBatchFor); default VALUE_BATCH. */
  valueBatch?: number;
}

const UNKNOWN_ENTITY: Partial<Record<EntityKind, string>> = {
  consumptionpoint: 'Unknown consumption point',
  supplymeteringpoint: 'Unknown metering point',
  fixedmeteringpoint: 'Unknown metering point',
  pricearea: 'Unknown price area',
  settlementarea: 'Unknown settlement area',
};

class Refused extends Error {}

/** Warnings an OK outcome's text quotes (the rest are counted). */
const SHOWN_WARNINGS = 3;

const FIVE_MINUTES = 5 * 60_000;
const CEBD_TYPES = Object.values(CEBD_SERIES);
/** Batches handed to the store that the parser may run ahead of (see flush). */
const AHEAD = 2;
const DAY_MS = 86_400_000;
/**
 * Parsing is work on this thread: after this long without a turn of the event loop, the parse loop
 * gives it one, so requests (/health, lists, the upload's answer) are served while a large file is
 * read; on the embedded database the statements yield the same way (db/embedded-session.ts).
 */
const TURN_EVERY_MS = 50;

/** What one series of the file added, for its data-log summary. */
interface Tally {
  typeName: TimeSeriesTypeName;
  identifier: string;
  resolution: Resolution;
  first: number;
  last: number;
  count: number;
}

type Pending = { kind: 'series'; series: ParsedSeries } | { kind: 'cebd'; block: ParsedCebdBlock };

export async function importParsedStream(
  ctx: ServiceContext,
  format: IntakeFormat,
  input: AsyncIterable<Buffer>,
  options: IntakeOptions,
): Promise<IntakeResult> {
  const maxProblems = options.maxProblems ?? 100;
  const valueBatch = options.valueBatch ?? VALUE_BATCH;
  const problems: Problem[] = [];
  /** Kept with an OK outcome (train runs: an unknown EVN is train-preprocessing's to judge). */
  const warnings: Problem[] = [];
  const tallies = new Map<number, Tally>();
  const counts: StoreCounts = { inserted: 0, superseded: 0, unchanged: 0 };
  const source = { dataLogId: options.dataLogId, username: ctx.actor.username };
  const tenant = ctx.tenant.uuid;
  const tooLateBefore =
    options.maxDaysSinceObservation != null
      ? (options.now ?? new Date()).getTime() - options.maxDaysSinceObservation * DAY_MS
      : null;
  let trainRunsStored = 0;

  const problem = (p: Problem) => {
    if (problems.length < maxProblems) problems.push(p);
  };

  try {
    await ctx.db.transaction(async (tx) => {
      const txCtx: ServiceContext = { ...ctx, db: tx };
      const entities = new Map<string, ResolvedEntity | null>();
      const seriesIds = new Map<string, number>();
      const trainRuns: ParsedTrainRun[] = [];
      let pending: Pending[] = [];
      let pendingValues = 0;
      /** The batch being stored (see the end of flush). */
      let storing: Promise<void> = Promise.resolve();
      let storeFailed = false;
      const ensuredMonths: EnsuredMonths = new Set();
      /** The CEBD file's sender (its DCS), kept on the data-log entry for cebd-preprocessing (code 55). */
      let sender: string | undefined;

      let settlementAreaName: string | null | undefined;
      /** Resolves, validates and stores one batch of parsed items (runs in the `storing` chain). */
      const storeItems = async (items: Pending[]) => {
        // Nordpool names the exchange rate by its currency: it is the area's settlement area's rate.
        for (const item of items) {
          if (item.kind !== 'series' || item.series.typeName !== 'currency_exchange_rate') continue;
          const code = item.series.identifier;
          if (!/^[A-Z]{3}$/.test(code)) continue;
          const own = countryCurrency(ctx.tenant.kind);
          if (own !== code) {
            problem({
              location: item.series.location,
              message: `Currency ${code} is not the currency of ${ctx.tenant.name}${own ? ` (${own})` : ''}`,
            });
            continue;
          }
          settlementAreaName ??=
            (
              await rows<{ name: string }>(
                tx,
                sql`SELECT name FROM entity_latest WHERE tenant = ${tenant}::uuid AND type = 'settlementarea' ORDER BY name LIMIT 1`,
              )
            )[0]?.name ?? null;
          if (settlementAreaName) item.series = { ...item.series, identifier: settlementAreaName };
        }
        if (problems.length > 0) return;
        await resolveAll(tx, tenant, items, entities);
        const keys = new Map<string, SeriesKey>();
        const keyFor = (typeName: TimeSeriesTypeName, identifier: string, resolution: Resolution, unit?: string) => {
          const entity = entities.get(entityKey(typeName, identifier));
          if (!entity) return null;
          const stored = retypeFor(typeName, entity.kind);
          const key: SeriesKey = {
            typeName: stored,
            entityUuid: entity.uuid,
            entityKind: entity.kind,
            identifier,
            resolution,
            unit: unit ?? TIME_SERIES_TYPES[stored].unit,
          };
          const k = seriesKeyOf(key);
          if (!seriesIds.has(k)) keys.set(k, key);
          return k;
        };
        // Unknown entities refuse the file; every key is known before values are added.
        for (const item of items) {
          if (item.kind === 'series') {
            const { series } = item;
            if (!keyFor(series.typeName, series.identifier, series.resolution, series.unit)) {
              problem({ location: series.location, message: unknownText(series.typeName, series.identifier) });
            }
          } else {
            for (const typeName of Object.values(CEBD_SERIES)) {
              if (!keyFor(typeName, item.block.cpid, 'PT5M')) {
                problem({ location: item.block.location, message: unknownText(typeName, item.block.cpid) });
                break;
              }
            }
          }
        }
        if (problems.length > 0) return;
        for (const [k, id] of await ensureSeries(tx, tenant, [...keys.values()])) seriesIds.set(k, id);

        const values = new ValueBatch();
        const records = new RecordBatch();
        const tally = (
          seriesId: number,
          typeName: TimeSeriesTypeName,
          identifier: string,
          resolution: Resolution,
          first: number,
          last: number,
          count = 1,
        ) => {
          const t = tallies.get(seriesId);
          if (t) {
            t.count += count;
            if (first < t.first) t.first = first;
            if (last > t.last) t.last = last;
          } else {
            tallies.set(seriesId, { typeName, identifier: detached(identifier), resolution, first, last, count });
          }
        };
        for (const item of items) {
          if (item.kind === 'series') {
            const { series } = item;
            const k = keyFor(series.typeName, series.identifier, series.resolution, series.unit)!;
            const id = seriesIds.get(k)!;
            const typeName = retypeFor(
              series.typeName,
              entities.get(entityKey(series.typeName, series.identifier))!.kind,
            );
            for (const point of series.points) {
              const start = Date.parse(point.start);
              values.add(id, start, point.value, point.quality);
              tally(id, typeName, series.identifier, series.resolution, start, start);
            }
          } else {
            const { block } = item;
            const cp = entities.get(entityKey(CEBD_SERIES.activeConsumed, block.cpid))!;
            const [ac, ar, rc, rr] = CEBD_TYPES.map((t) => seriesIds.get(keyFor(t, block.cpid, 'PT5M')!)!) as [
              number,
              number,
              number,
              number,
            ];
            // The hot loop of a CEBD file (hundreds of thousands of records): one Date.parse per
            // record, one cebd_record row each (the four series keep their time_series rows for the
            // data log's summaries and the export's list), tallies per block.
            let first = Infinity;
            let last = -Infinity;
            for (const r of block.records) {
              const end = Date.parse(r.periodEnd);
              records.add(cp.uuid, end, r);
              if (end < first) first = end;
              if (end > last) last = end;
            }
            first -= FIVE_MINUTES;
            last -= FIVE_MINUTES;
            if (block.records.length > 0) {
              [ac, ar, rc, rr].forEach((id, i) =>
                tally(id, CEBD_TYPES[i]!, block.cpid, 'PT5M', first, last, block.records.length),
              );
            }
          }
        }
        const stored = await storeBatch(tx, tenant, { values, records }, source, ensuredMonths);
        counts.inserted += stored.inserted;
        counts.superseded += stored.superseded;
        counts.unchanged += stored.unchanged;
      };

      /**
       * Hands the pending items to the `storing` chain and goes back to parsing: PostgreSQL works in
       * its own process, so reading the file and storing it overlap (bench/cebd-intake.ts). Batches
       * are resolved and stored in file order on the transaction's connection, one after the other;
       * the parser may run AHEAD batches ahead (it waits while more are queued), so memory stays at
       * a few batches whatever the file's size, and a slow statement or a slow stretch of parsing
       * does not stall the other side.
       */
      const queued: Promise<void>[] = [];
      const flush = async () => {
        const items = pending;
        pending = [];
        pendingValues = 0;
        storing = storing.then(() => storeItems(items));
        // Awaited here or at the end; meanwhile a failure stops the parsing.
        storing.catch(() => {
          storeFailed = true;
        });
        queued.push(storing);
        if (queued.length > AHEAD) await queued.shift()!.catch(() => undefined);
      };

      let lastTurn = performance.now();
      try {
        for await (const item of format.parse(input, { timeZone: ctx.tenant.timeZone, maxProblems })) {
          if (storeFailed) break;
          if (performance.now() - lastTurn > TURN_EVERY_MS) {
            await nextTurn();
            lastTurn = performance.now();
          }
          if (item.kind === 'problem') {
            problem(item.problem);
          } else if (item.kind === 'trainrun') {
            if (trainRuns.length >= (options.maxTrainRuns ?? 100_000)) {
              problem({ location: item.run.location, message: 'Too many train runs in one file' });
            } else {
              trainRuns.push(item.run);
            }
          } else if (item.kind === 'series') {
            pending.push(item);
            pendingValues += item.series.points.length;
          } else {
            if (item.block.dcs !== undefined) sender ??= detached(item.block.dcs);
            if (tooLateBefore !== null) {
              const late = item.block.records.find((r) => Date.parse(r.periodEnd) < tooLateBefore);
              if (late) {
                problem({
                  location: item.block.location,
                  message: `Data received too late: ${item.block.cpid} ${late.periodEnd} is older than the maximum of ${options.maxDaysSinceObservation} days since observation`,
                });
              }
            }
            pending.push(item);
            pendingValues += item.block.records.length * 4;
          }
          if (problems.length >= maxProblems) break;
          if (pendingValues >= valueBatch) await flush();
        }
        await flush();
      } finally {
        // Whatever ended the loop, no statement of a batch may run after the transaction ends.
        await storing.catch(() => undefined);
      }
      await storing;
      if (sender !== undefined && options.dataLogId !== null && problems.length === 0) {
        await tx.execute(sql`UPDATE data_log SET sender = ${sender} WHERE id = ${options.dataLogId}`);
      }
      if (trainRuns.length > 0 && problems.length === 0) {
        if (!options.storeTrainRuns || options.dataLogId === null) {
          problem({ location: trainRuns[0]!.location, message: 'Train runs are not accepted by this import' });
        } else {
          const result = await options.storeTrainRuns(txCtx, trainRuns, options.dataLogId);
          result.problems.forEach(problem);
          warnings.push(...(result.warnings ?? []));
          trainRunsStored = result.stored;
        }
      }
      if (problems.length > 0) throw new Refused();
    });
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return {
      status: 'REJECTED',
      text: rejectionText(problems, maxProblems),
      problems,
      summaries: [],
      counts: { inserted: 0, superseded: 0, unchanged: 0 },
      trainRuns: 0,
    };
  }

  const summaries = [...tallies.values()].map((t) => ({
    startTime: new Date(t.first).toISOString(),
    endTime: nextPeriodStart(new Date(t.last), t.resolution, ctx.tenant.timeZone).toISOString(),
    timeSeriesType: t.typeName,
    entityIdentifier: t.identifier,
    valuesCount: t.count,
    message: null,
  }));
  const values = counts.inserted + counts.superseded + counts.unchanged;
  const parts = [`Imported ${values} values of ${summaries.length} time series`];
  if (counts.superseded > 0) parts.push(`${counts.superseded} corrected`);
  if (counts.unchanged > 0) parts.push(`${counts.unchanged} unchanged`);
  if (trainRunsStored > 0) parts.unshift(`Imported ${trainRunsStored} train runs`);
  const base = values === 0 && trainRunsStored > 0 ? parts[0]! : parts.join(', ');
  // A few examples and the count: a train-run file names every wagon, and wagons are not in the fleet.
  const noted = warnings.slice(0, SHOWN_WARNINGS).map(problemText).join('; ');
  return {
    status: 'OK',
    text:
      warnings.length > 0
        ? `${base}; ${warnings.length} warnings: ${noted}${warnings.length > SHOWN_WARNINGS ? ` and ${warnings.length - SHOWN_WARNINGS} more` : ''}`
        : base,
    problems: [],
    summaries,
    counts,
    trainRuns: trainRunsStored,
  };
}

/**
 * A copy of a string that shares no memory with the text it was cut from. A parser's identifier can
 * be a slice of the decoded chunk it stood in (V8 keeps the whole chunk alive behind a slice): kept
 * for the whole file in the tallies and the entity map, one cpid per chunk held every chunk of a
 * day file (~140 MB, bench/cebd-intake.ts), so memory grew with the file.
 */
const detached = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

const entityKey = (typeName: TimeSeriesTypeName, identifier: string) =>
  `${kindsFor(typeName).join(',')}\u0000${identifier}`;

const unknownText = (typeName: TimeSeriesTypeName, identifier: string) =>
  `${UNKNOWN_ENTITY[kindsFor(typeName)[0]!] ?? `Unknown ${TIME_SERIES_TYPES[typeName].refKind}`} ${identifier}`;

/** Resolves the identifiers of the items not seen before, one query per kind list. */
async function resolveAll(
  ex: Executor,
  tenant: string,
  items: Pending[],
  entities: Map<string, ResolvedEntity | null>,
): Promise<void> {
  const wanted = new Map<string, { kinds: EntityKind[]; identifiers: Set<string> }>();
  const want = (typeName: TimeSeriesTypeName, identifier: string) => {
    if (entities.has(entityKey(typeName, identifier))) return;
    const kinds = kindsFor(typeName);
    const group = kinds.join(',');
    const entry = wanted.get(group) ?? { kinds, identifiers: new Set<string>() };
    entry.identifiers.add(identifier);
    wanted.set(group, entry);
  };
  for (const item of items) {
    if (item.kind === 'series') want(item.series.typeName, item.series.identifier);
    else want(CEBD_SERIES.activeConsumed, item.block.cpid);
  }
  for (const { kinds, identifiers } of wanted.values()) {
    const found = await resolveIdentifiers(ex, tenant, kinds, [...identifiers]);
    for (const identifier of identifiers) {
      entities.set(detached(`${kinds.join(',')}\u0000${identifier}`), found.get(identifier) ?? null);
    }
  }
}

/** The data-log text of a refused file: its problems, where each is, the first ones in full. */
export function rejectionText(problems: Problem[], maxProblems: number): string {
  const shown = problems.slice(0, 20).map(problemText);
  const more = problems.length - shown.length;
  const suffix =
    more > 0 ? `; and ${more} more${problems.length >= maxProblems ? ` (stopped after ${maxProblems})` : ''}` : '';
  return `The file was refused and nothing of it was stored: ${shown.join('; ')}${suffix}`;
}
