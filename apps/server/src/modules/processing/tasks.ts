import {
  FAILABLE_STATUSES,
  PROCESS_EVENT_CODES,
  UNDER_WAY_STATUSES,
  type ProcedureName,
  type ProcedureResult,
  type ProcedureTaskBatch,
  type ProcedureTaskBody,
  type ProcedureTaskQuery,
  type SaveProcedureResult,
  type SettledConsumption,
} from '@railwatt/contracts';
import type { ReadContext, ServiceContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { visibleOrganisations } from '../organisation/visibility.js';
import { findResult, updateResult } from './repository.js';
import { monthRange, refuseWhileUnderWay, startRun, type RunQueue } from './service.js';
import { approvedOfSameScope, findResults, setStatus, settledConsumption } from './tasks-repository.js';

/**
 * The task calls and the procedure-result writes (issue 9 item 3; calls.md §7 "Processes and
 * configuration", "Procedure results"). A task is a run of a procedure for a month (startRun);
 * approval, set-to-failure and save change a stored result's status.
 */

const invalid = (message: string) => ApiError.badRequest('invalid_input', message);

function monthOf(ctx: ServiceContext, task: { year: number; month: number; zoneId?: string }) {
  return monthRange(task.year, task.month, task.zoneId ?? ctx.tenant.timeZone);
}

function refuseDestinations(body: ProcedureTaskBody): void {
  // See contracts procedureTaskBodySchema: a procedure run delivers no file.
  if (body.destinations.length > 0) {
    throw invalid('A procedure run delivers no file: destinations belong to report tasks');
  }
}

/** POST (and GET) /processing/tasks/{procedure}: a run of the procedure for the month of the query. */
export async function startTask(
  ctx: ServiceContext,
  queue: RunQueue,
  name: ProcedureName,
  query: ProcedureTaskQuery,
  body: ProcedureTaskBody,
): Promise<ProcedureResult> {
  if (query.procedureName !== undefined && query.procedureName !== name) {
    throw invalid(`procedureName ${query.procedureName} does not match the path's ${name}`);
  }
  refuseDestinations(body);
  return startRun(ctx, queue, name, {
    timeRange: monthOf(ctx, query),
    refs: body.refs,
    entityName: body.params.entityName,
    refTime: body.params.refTime,
  });
}

/**
 * POST /processing/tasks/batch/{procedure}: every task's month is checked first (two tasks of the
 * same period, or a run under way, refuse the batch before any run starts), then each starts.
 */
export async function startBatch(
  ctx: ServiceContext,
  queue: RunQueue,
  name: ProcedureName,
  tasks: ProcedureTaskBatch,
): Promise<ProcedureResult[]> {
  const planned = tasks.map((task) => {
    refuseDestinations(task);
    return { task, range: monthOf(ctx, task) };
  });
  planned.forEach(({ range }, i) => {
    const other = planned.findIndex(
      (p, j) =>
        j !== i &&
        Date.parse(p.range.start) < Date.parse(range.end) &&
        Date.parse(range.start) < Date.parse(p.range.end),
    );
    if (other >= 0)
      throw invalid(`Tasks ${Math.min(i, other) + 1} and ${Math.max(i, other) + 1} cover the same period`);
  });
  for (const { range } of planned) await refuseWhileUnderWay(ctx, name, range);
  const results: ProcedureResult[] = [];
  for (const { task, range } of planned) {
    results.push(
      await startRun(ctx, queue, name, {
        timeRange: range,
        refs: task.refs,
        entityName: task.params.entityName,
        refTime: task.params.refTime,
      }),
    );
  }
  return results;
}

async function areaResult(ctx: ReadContext, id: number): Promise<ProcedureResult> {
  const result = await findResult(ctx.db, ctx.tenant.uuid, id);
  if (!result) throw invalid(`Unknown procedure result ${id}`);
  return result;
}

/**
 * POST /processing/tasks/set-settlement-procedure-to-failure/{procedureResultId}: our reading of the
 * path: settlement results only (DOMAIN.md "Processing" step 11: a settlement result can be set to
 * failure), under way or finished; an approved or corrected one is unapproved first, so a bill
 * already sent is never failed silently. A run under way finishes the days it is running but ends
 * as failure: run.ts reads the status again before it records success and keeps the verdict.
 */
export async function setSettlementToFailure(
  ctx: ServiceContext,
  id: number,
  message: string | undefined,
): Promise<ProcedureResult> {
  const result = await areaResult(ctx, id);
  if (result.procedureName !== 'settlement') throw invalid(`Procedure result ${id} is not a settlement result`);
  if (!FAILABLE_STATUSES.includes(result.status)) {
    throw invalid(`A ${result.status} settlement result cannot be set to failure`);
  }
  await updateResult(ctx.db, id, {
    status: 'failure',
    message: message ?? `Set to failure by ${ctx.actor.username}`,
    finished: true,
  });
  return areaResult(ctx, id);
}

/**
 * POST /eventlog/procedure-result/approve-procedure-results: each result must be a success; an
 * approved result of the same procedure, period and refs already exists -> 400 in calls.md §8's
 * words, unless updatePreviouslyApprovedToCorrected makes it corrected. One transaction.
 */
export async function approveResults(
  ctx: ServiceContext,
  ids: readonly number[],
  options: { updatePreviouslyApprovedToCorrected: boolean; splitTypeName?: string },
): Promise<ProcedureResult[]> {
  const wanted = [...new Set(ids)];
  return ctx.db.transaction(async (tx) => {
    const results = await findResults(tx, ctx.tenant.uuid, wanted);
    const missing = wanted.find((id) => !results.some((r) => r.id === id));
    if (missing !== undefined) throw invalid(`Unknown procedure result ${missing}`);
    const notSuccess = results.find((r) => r.status !== 'success');
    if (notSuccess) {
      throw invalid(`Only a successful result can be approved: ${notSuccess.id} is ${notSuccess.status}`);
    }
    const previous = await approvedOfSameScope(tx, ctx.tenant.uuid, wanted);
    const among = previous.find((p) => wanted.includes(p.id));
    if (among) throw invalid(`Results ${among.approving} and ${among.id} have the same scope: approve one`);
    if (previous.length > 0 && !options.updatePreviouslyApprovedToCorrected) {
      // The catalogue's words (calls.md §8) stay the message; the detail names the result it is
      // about and the way out (issue 18 item 5).
      throw ApiError.badRequest('approved-settlement-exists', PROCESS_EVENT_CODES['approved-settlement-exists'], {
        detail: previous.map(approvedDetail).join(' '),
      });
    }
    // A corrected result no longer says who approved it: it says who corrected it, when, and which
    // result took its place.
    const at = new Date().toISOString().slice(0, 16).replace('T', ' ');
    for (const p of previous)
      await setStatus(
        tx,
        ctx.tenant.uuid,
        [p.id],
        'corrected',
        `Corrected by ${ctx.actor.username} at ${at} UTC: result ${p.approving} approved in its place`,
      );
    const split = options.splitTypeName ? ` (split ${options.splitTypeName})` : '';
    await setStatus(tx, ctx.tenant.uuid, wanted, 'approved', `Approved by ${ctx.actor.username}${split}`);
    return findResults(tx, ctx.tenant.uuid, wanted);
  });
}

/**
 * What approved-settlement-exists is about: the procedure and period of the approved result in the
 * way, and how to mark it corrected (the settlement page's checkbox sends the same flag).
 */
function approvedDetail(p: {
  id: number;
  approving: number;
  procedureName: string;
  periodStart: string;
  periodEnd: string;
  refs: number;
}): string {
  const scope = p.refs === 0 ? 'the whole area' : `the same ${p.refs === 1 ? 'entity' : `${p.refs} entities`}`;
  return (
    `Result ${p.id} of ${p.procedureName} for ${p.periodStart} to ${p.periodEnd} (${scope}) is approved. ` +
    `To approve result ${p.approving} in its place, approve again with "Mark the earlier approved settlement corrected" ` +
    `(updatePreviouslyApprovedToCorrected=true): result ${p.id} then becomes corrected.`
  );
}

/**
 * POST /eventlog/procedure-result/saveProcedureResult/save, our reading: a user saves the verdict
 * and comment of a finished result (contracts SAVABLE_STATUSES); success only takes an approved
 * result back. A result under way is the run's: its status is not saved by hand.
 */
export async function saveResult(ctx: ServiceContext, body: SaveProcedureResult): Promise<ProcedureResult> {
  const result = await areaResult(ctx, body.id);
  if (body.status !== undefined) {
    if (UNDER_WAY_STATUSES.includes(result.status)) {
      throw invalid(`Procedure result ${body.id} is ${result.status}: wait for its run to finish`);
    }
    if (body.status === 'success' && result.status !== 'success' && result.status !== 'approved') {
      throw invalid(`Only an approved result can be set back to success (${body.id} is ${result.status})`);
    }
  }
  await updateResult(ctx.db, body.id, {
    ...(body.status !== undefined ? { status: body.status } : {}),
    ...(body.message !== undefined ? { message: body.message } : {}),
  });
  return areaResult(ctx, body.id);
}

/**
 * POST /eventlog/procedure-result/settledConsumption/findByProcedureResultIds (another area's ids
 * find nothing): the organisations the actor may see, as the base verification (a consumer its own).
 */
export const findSettledConsumption = async (
  ctx: ServiceContext,
  ids: readonly number[],
): Promise<SettledConsumption[]> =>
  settledConsumption(ctx.db, ctx.tenant.uuid, [...new Set(ids)], await visibleOrganisations(ctx));
