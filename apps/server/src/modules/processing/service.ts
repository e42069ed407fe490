import {
  canRerun,
  ERROR_CODES,
  PROCEDURE_RESULT_STATUSES,
  PROCEDURES,
  RUN_STATUSES,
  SEVERITIES,
  settlesForTpa,
  UNDER_WAY_STATUSES,
  dayStartInZone,
  nextPeriodStart,
  type EntityRef,
  type ProcedureName,
  type ProcedureResult,
  type ProcedureResultPage,
  type ProcedureResultStatus,
  type ProcedureRunOptions,
  type ProcedureRunRequest,
  type ProcessInfo,
  type ProcessingEventFilter,
  type ProcessingEventPage,
  type ProcessLogFilter,
} from '@railwatt/contracts';
import type { ReadContext, ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { visibleOrganisations } from '../organisation/visibility.js';
import {
  countEvents,
  eventErrorCodes,
  eventResultIds,
  findEventPage,
  findLatestResult,
  findResult,
  findResultPage,
  findUnderWay,
  foreignRefs,
  insertResult,
  jobStatusOf,
  processesWithEvents,
  summariseEvents,
  updateResult,
  type ResultQuery,
} from './repository.js';

/**
 * Processing runs and their log (issue 9 items 1 and 3): starting and re-running procedures, and
 * reading procedure results and processing events. The runs themselves are run.ts's, in the
 * `procedure-run` job; `queue` puts a result on that job (the route passes the app's job runner).
 */

/** Queues the `procedure-run` job for a result; answers the job run id. */
export type RunQueue = (ctx: ServiceContext, procedureResultId: number) => Promise<string>;

const pages = (total: number, size: number) => Math.ceil(total / size);

const alreadyRunning = () => ApiError.badRequest('process_already_running', ERROR_CODES.process_already_running);

/**
 * A run under way of the same scope refuses a new one, unless its job is over (dead, or gone): the
 * worker died on its last attempt without recording the end. Such a run is set to failure here, so
 * it can be run again (rerun resumes it from its unfinished days). A CEBD file's check on arrival
 * refuses nothing and is refused by nothing (migration 0376; its chunks wait per area day instead).
 */
export async function refuseWhileUnderWay(
  ctx: ServiceContext,
  name: ProcedureName,
  period: { start: string; end: string },
) {
  const underWay = await findUnderWay(ctx.db, ctx.tenant.uuid, name, period, { besideArrivalChecks: true });
  if (!underWay) return;
  const job = await jobStatusOf(ctx.db, underWay.jobId);
  if (underWay.jobId !== null && (job === null || job === 'dead' || job === 'success')) {
    await updateResult(ctx.db, underWay.id, {
      status: 'failure',
      message: 'The run ended without finishing (its job is over)',
      finished: true,
    });
    return;
  }
  throw alreadyRunning();
}

export async function queueResult(
  ctx: ServiceContext,
  queue: RunQueue,
  result: ProcedureResult,
): Promise<ProcedureResult> {
  try {
    const jobId = await queue(ctx, result.id);
    await updateResult(ctx.db, result.id, { jobId });
    return { ...result, jobId };
  } catch (error) {
    await updateResult(ctx.db, result.id, {
      status: 'failure',
      message: 'The run could not be queued',
      finished: true,
    });
    throw error;
  }
}

function runnable(name: ProcedureName): void {
  if (!PROCEDURES[name].runnable) throw ApiError.badRequest('invalid_input', `${name} is a log only: it is not run`);
}

/** POST /processing/{procedure}/run: a new result for the period, queued. */
export async function startRun(
  ctx: ServiceContext,
  queue: RunQueue,
  name: ProcedureName,
  request: ProcedureRunRequest,
  options: { cause?: string; bySystem?: true; runOptions?: ProcedureRunOptions } = {},
): Promise<ProcedureResult> {
  // The aggregation option is metered-energy-aggregation's alone (its FIRST or SECOND aggregation).
  if (options.runOptions?.aggregation !== undefined && name !== 'metered-energy-aggregation')
    throw ApiError.badRequest('invalid_input', `${name} takes no aggregation option`);
  // The TPA settlement is settlement's alone, in an area that settles for a TPA (contracts
  // TPA_SETTLEMENT_AREAS, product.md §2: the tpa-twins exist only there).
  if (options.runOptions?.tpa && (name !== 'settlement' || !settlesForTpa(ctx.tenant.kind)))
    throw ApiError.badRequest('invalid_input', `${name} takes no tpa option in this area`);
  // A log-only procedure (product.md §2 "(log only)": the estimation procedures) has no run page:
  // the processing chain runs it (chain.ts), users read its log.
  if (!options.bySystem) runnable(name);
  // A run limited to refs works on those entities of this area: a uuid of another area (or of
  // nothing) is refused rather than stored, and shown, as this run's scope.
  const foreign = await foreignRefs(ctx.db, ctx.tenant.uuid, [...new Set(request.refs.map((r) => r.uuid))]);
  if (foreign.length > 0) {
    throw ApiError.badRequest('invalid_input', `refs name no entity of this area: ${foreign.join(', ')}`);
  }
  if (options.runOptions?.followers !== 'processed') await refuseWhileUnderWay(ctx, name, request.timeRange);
  // Two requests racing past the check meet the exclusion constraint (db/constraints.ts: 400
  // process_already_running).
  const result = await insertResult(ctx.db, {
    tenant: ctx.tenant.uuid,
    procedureName: name,
    periodStart: request.timeRange.start,
    periodEnd: request.timeRange.end,
    refs: request.refs,
    entityName: request.entityName ?? null,
    refTime: request.refTime ?? null,
    username: ctx.actor.username,
    cause: options.cause ?? null,
    options: options.runOptions ?? {},
  });
  return queueResult(ctx, queue, result);
}

/**
 * POST /processing/{procedure}/rerun: each result again. A failed one resumes (same result, its
 * finished days kept: the run completes what a crash or a failure left); a finished one runs anew as
 * a new result of the same scope (rerun_of), since its data may have changed since.
 */
export async function rerun(
  ctx: ServiceContext,
  queue: RunQueue,
  name: ProcedureName,
  ids: readonly number[],
): Promise<ProcedureResult[]> {
  if (!canRerun(name)) throw ApiError.badRequest('invalid_input', `${name} is not run again`);
  // Every row is checked before any is queued: an unknown id refuses the whole request.
  const results: ProcedureResult[] = [];
  for (const id of new Set(ids)) {
    const result = await findResult(ctx.db, ctx.tenant.uuid, id);
    if (!result || result.procedureName !== name) {
      throw ApiError.badRequest('invalid_input', `Unknown ${name} procedure result ${id}`);
    }
    results.push(result);
  }
  const answers: ProcedureResult[] = [];
  for (const result of results) {
    const id = result.id;
    const period = { start: result.periodStart, end: result.periodEnd };
    await refuseWhileUnderWay(ctx, name, period);
    const fresh = await findResult(ctx.db, ctx.tenant.uuid, id);
    if (fresh?.status === 'failure') {
      await updateResult(ctx.db, id, { status: 'initial', message: null, finished: false });
      answers.push(await queueResult(ctx, queue, { ...fresh, status: 'initial', message: null, executeEndTime: null }));
      continue;
    }
    const again = await insertResult(ctx.db, {
      tenant: ctx.tenant.uuid,
      procedureName: name,
      periodStart: period.start,
      periodEnd: period.end,
      refs: result.entityRefs,
      entityName: result.entityName,
      refTime: result.refTime,
      username: ctx.actor.username,
      rerunOf: id,
    });
    answers.push(await queueResult(ctx, queue, again));
  }
  return answers;
}

/**
 * A dead `procedure-run` message run again (dead letter queues): a result left in failure (or under
 * way with its job over) resumes from its unfinished days, like rerun does for a failed result.
 * Answers null when nothing is left to do: the result has finished since (a rerun from its process
 * page), or is gone.
 */
export async function resumeFailedResult(
  ctx: ServiceContext,
  queue: RunQueue,
  id: number,
): Promise<ProcedureResult | null> {
  const result = await findResult(ctx.db, ctx.tenant.uuid, id);
  if (!result) return null;
  await refuseWhileUnderWay(ctx, result.procedureName, { start: result.periodStart, end: result.periodEnd });
  const fresh = await findResult(ctx.db, ctx.tenant.uuid, id);
  if (fresh?.status !== 'failure') return null;
  await updateResult(ctx.db, id, { status: 'initial', message: null, finished: false });
  return queueResult(ctx, queue, { ...fresh, status: 'initial', message: null, executeEndTime: null });
}

/**
 * The process log. What an actor reads of it follows organisation/visibility.ts: a consumer does not
 * see a run limited to another organisation (repository visibleResults), here and in checkStatus,
 * exists and findLatest.
 */
export async function findProcedureResults(
  ctx: ServiceContext,
  query: ResultQuery,
  filter: ProcessLogFilter,
): Promise<ProcedureResultPage> {
  const { total, content } = await findResultPage(
    ctx.db,
    ctx.tenant.uuid,
    query,
    filter,
    await visibleOrganisations(ctx),
  );
  return { content, totalPages: pages(total, query.size), totalElements: total };
}

/** Settlement results take every status of calls.md §4; the other procedures' runs the run statuses. */
export function procedureResultStatuses(name?: ProcedureName): ProcedureResultStatus[] {
  return name === undefined || name === 'settlement' ? [...PROCEDURE_RESULT_STATUSES] : [...RUN_STATUSES];
}

export async function checkStatus(
  ctx: ServiceContext,
  name: ProcedureName,
  period: { start?: string; end?: string },
): Promise<{ running: boolean; latest: ProcedureResult | null }> {
  const range = period.start && period.end ? { start: period.start, end: period.end } : undefined;
  const visible = await visibleOrganisations(ctx);
  // `running` is any run of the area (it decides whether a run may start, and names nothing); the
  // result shown is one the actor may read: a run limited to another organisation is not.
  const underWay = await findUnderWay(ctx.db, ctx.tenant.uuid, name, range);
  const shownUnderWay =
    underWay && visible !== null
      ? await findLatestResult(ctx.db, ctx.tenant.uuid, name, { range, statuses: UNDER_WAY_STATUSES, visible })
      : underWay;
  const latest = shownUnderWay ?? (await findLatestResult(ctx.db, ctx.tenant.uuid, name, { range, visible }));
  return { running: underWay !== undefined, latest: latest ?? null };
}

/** The month [start, end) of `year`-`month` in a time zone. */
export function monthRange(year: number, month: number, timeZone: string): { start: string; end: string } {
  const start = dayStartInZone(`${year}-${String(month).padStart(2, '0')}-01`, timeZone);
  return { start, end: nextPeriodStart(start, 'P1M', timeZone).toISOString() };
}

export async function resultExists(
  ctx: ServiceContext,
  query: { year: number; month: number; zoneId?: string; procedureName: ProcedureName; status?: string[] },
  refs: readonly EntityRef[],
): Promise<boolean> {
  const range = monthRange(query.year, query.month, query.zoneId ?? ctx.tenant.timeZone);
  const found = await findLatestResult(ctx.db, ctx.tenant.uuid, query.procedureName, {
    refs: refs.map((r) => r.uuid),
    range,
    statuses: query.status,
    visible: await visibleOrganisations(ctx),
  });
  return found !== undefined;
}

export async function latestResult(
  ctx: ServiceContext,
  query: { procedureName: ProcedureName; interval?: { start: string; end: string }; status?: string[] },
  refs: readonly EntityRef[],
): Promise<ProcedureResult | null> {
  const found = await findLatestResult(ctx.db, ctx.tenant.uuid, query.procedureName, {
    refs: refs.map((r) => r.uuid),
    range: query.interval,
    statuses: query.status,
    visible: await visibleOrganisations(ctx),
  });
  return found ?? null;
}

export async function findProcessingEvents(
  ctx: ReadContext,
  query: { page: number; size: number; sortBy: string; descendingOrder: boolean },
  filter: ProcessingEventFilter,
): Promise<ProcessingEventPage> {
  const { total, content } = await findEventPage(ctx.db, ctx.tenant.uuid, query, filter);
  return { content, totalPages: pages(total, query.size), totalElements: total };
}

export const countProcessingEvents = (ctx: ReadContext, filter: ProcessingEventFilter) =>
  countEvents(ctx.db, ctx.tenant.uuid, filter);
/** POST /eventlog/processingevent/summary: the filter's events by code and severity. */
export const summariseProcessingEvents = (ctx: ReadContext, filter: ProcessingEventFilter) =>
  summariseEvents(ctx.db, ctx.tenant.uuid, filter);
export const processingEventResultIds = (ctx: ReadContext, filter: ProcessingEventFilter) =>
  eventResultIds(ctx.db, ctx.tenant.uuid, filter);
export const processingEventErrorCodes = (ctx: ReadContext, processName?: string) =>
  eventErrorCodes(ctx.db, ctx.tenant.uuid, processName);
export const processingEventSeverities = () => [...SEVERITIES];

const processInfo = (name: ProcedureName): ProcessInfo => ({ name, ...PROCEDURES[name] });

/** GET /domain/processes: every process of the Monitor. */
export const allProcesses = (): ProcessInfo[] => (Object.keys(PROCEDURES) as ProcedureName[]).map(processInfo);

/** GET /domain/processes/with-events: the processes with events in the area, in the Monitor's order. */
export async function processesHavingEvents(ctx: ReadContext): Promise<ProcessInfo[]> {
  const names = new Set(await processesWithEvents(ctx.db, ctx.tenant.uuid));
  return allProcesses().filter((p) => names.has(p.name));
}
