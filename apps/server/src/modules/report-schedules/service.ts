import { randomUUID } from 'node:crypto';
import {
  AREA_WIDE_ROLES,
  MESSAGE_TYPES,
  REPORT_FORMATS,
  SCHEDULE_MESSAGES,
  deliveryDestinationSchema,
  storedDeliveryDestinationSchema,
  rolesInArea,
  type ReportName,
  type ReportSchedule,
  type ReportScheduleBody,
  type StoredDeliveryDestination,
} from '@railwatt/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { systemContexts, type ServiceContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { ApiError, UserFacingError, userMessage } from '../../errors.js';
import { recordFile } from '../datalog/datalog-service.js';
import { deliveryCredentialsKey, destinationView, storableDestination } from '../delivery/credentials.js';
import { scheduleCredentialsOwner } from '../reports/delivery.js';
import { mayOrder } from '../reports/define-report.js';
import { prepareOrder, queueOrFail, storeOrder, type ReportQueue, type ReportTable } from '../reports/service.js';
import { findMarketFunctions, findUser } from '../user/repository.js';
import { nextRunAfter, reportedMonth } from './due.js';
import {
  claimRun,
  deleteSchedule as deleteRow,
  dueSchedules,
  findSchedule,
  listSchedules as listRows,
  nameTaken,
  recordRunEntry,
  upsertSchedule,
  type StoredSchedule,
} from './repository.js';

/**
 * Report schedules (issue 20 item 4; calls.md §7 GET/POST /processing/scheduledreports, POST
 * .../with-credentials, DELETE .../{id}): saving one (checked as an order of the report would be,
 * its password encrypted at once and never answered), listing and deleting them, and the round of
 * the `report-schedule` job that orders the due ones as "Scheduled report" entries.
 *
 * Whose view a run has: the schedule's OWNER's, read at each run. The run is made with the roles
 * the owner holds in the area at that moment (user_market_function) and the organisations the owner
 * may then see (organisation/visibility.ts through prepareOrder), exactly as if the owner ordered it:
 * a consumer's schedule never carries another organisation's figures, and an owner who lost the
 * right to the report (or was disabled) gets an ERROR entry instead of a file. Not the saver's roles
 * frozen at save time (a revoked user would keep receiving figures), and not the system's (which
 * sees everything).
 *
 * Who sees a schedule: its owner, and the area-wide roles (administrator, area responsibles,
 * settlement operators and their audit twins) every schedule of the area; each only of reports its
 * roles may order.
 */

const NOT_AUTHORIZED = 'Not authorized';
const invalid = (field: string, message: string) =>
  ApiError.badRequestMany([{ code: 'invalid_input', field, message }]);

const seesAll = (ctx: ServiceContext) => ctx.actor.roles.some((r) => AREA_WIDE_ROLES.includes(r));

function view(s: StoredSchedule): ReportSchedule {
  return {
    id: s.uuid,
    name: s.name,
    reportName: s.reportName,
    frequency: s.frequency,
    time: s.time,
    dayOfWeek: s.dayOfWeek,
    dayOfMonth: s.dayOfMonth,
    daysAfterPeriod: s.daysAfterPeriod,
    monthsAfterPeriod: s.monthsAfterPeriod,
    format: s.format,
    language: s.language,
    correction: s.correction,
    refs: s.refs,
    reportSpecificParameters: s.parameters,
    destination: destinationView(s.destination),
    owner: s.owner,
    nextRunAt: s.nextRunAt,
    lastRunAt: s.lastRunAt,
    lastDataLogId: s.lastDataLogId,
  };
}

/** GET /processing/scheduledreports: the schedules this user may see, of the reports it may order. */
export async function listSchedules(
  ctx: ServiceContext,
  reports: ReportTable,
  query: { reportName?: ReportName | undefined },
): Promise<ReportSchedule[]> {
  const found = await listRows(ctx.db, ctx.tenant.uuid, {
    ...(query.reportName ? { reportName: query.reportName } : {}),
    ...(seesAll(ctx) ? {} : { owner: ctx.actor.username }),
  });
  return found
    .filter((s) => {
      const report = reports.get(s.reportName);
      return report !== undefined && mayOrder(report, ctx.actor.roles);
    })
    .map(view);
}

/** A stored schedule this user may change or delete, else 404 (unknown here) or 403. */
async function ownSchedule(ctx: ServiceContext, reports: ReportTable, uuid: string): Promise<StoredSchedule> {
  const found = await findSchedule(ctx.db, ctx.tenant.uuid, uuid);
  if (!found) throw ApiError.notFound('The schedule was not found');
  const report = reports.get(found.reportName);
  if (!report || !mayOrder(report, ctx.actor.roles) || (!seesAll(ctx) && found.owner !== ctx.actor.username))
    throw ApiError.forbidden(NOT_AUTHORIZED);
  return found;
}

/**
 * POST /processing/scheduledreports (`withCredentials` false) and .../with-credentials: saves a new
 * schedule (owned by the saver) or a change of one (`id`; the owner stays). The report and its refs
 * and parameters are checked as an order of its next period would be (prepareOrder, as the saver);
 * a password travels only with credentials and is encrypted for the schedule's uuid at once. An
 * FTP or SFTP destination needs one: sent now, or kept from the schedule's earlier destination of
 * the same type.
 */
export async function saveSchedule(
  ctx: ServiceContext,
  reports: ReportTable,
  credentialsKey: Buffer | undefined,
  body: ReportScheduleBody,
  withCredentials: boolean,
): Promise<ReportSchedule> {
  const report = reports.get(body.reportName);
  if (!report) throw invalid('reportName', `The report ${body.reportName} is not available`);
  if (!mayOrder(report, ctx.actor.roles)) throw ApiError.forbidden(NOT_AUTHORIZED);
  const existing = body.id ? await ownSchedule(ctx, reports, body.id) : null;
  if (existing && existing.reportName !== body.reportName)
    throw invalid('reportName', 'A schedule keeps its report: make a new schedule for another report');
  if (await nameTaken(ctx.db, ctx.tenant.uuid, body.name, existing?.uuid ?? null))
    throw ApiError.badRequest('uniquename', SCHEDULE_MESSAGES.nameExists);

  const destination = body.destination;
  const password = 'password' in destination ? destination.password : undefined;
  if (password !== undefined && !withCredentials)
    throw invalid('destination.password', SCHEDULE_MESSAGES.passwordOnPlainSave);
  const uuid = existing?.uuid ?? randomUUID();
  let stored: StoredDeliveryDestination;
  if (destination.destinationType === 'my email') stored = destination;
  else if (password !== undefined) {
    const key = await deliveryCredentialsKey(ctx.db, credentialsKey);
    stored = storableDestination(key, scheduleCredentialsOwner(uuid), deliveryDestinationSchema.parse(destination));
  } else {
    // No password sent: the one stored for the same kind of destination stays (never shown again).
    const kept =
      existing && existing.destination.destinationType === destination.destinationType
        ? (existing.destination as { passwordEncrypted?: string }).passwordEncrypted
        : undefined;
    if (kept === undefined && destination.destinationType !== 'webservice')
      throw invalid('destination.password', SCHEDULE_MESSAGES.passwordRequired);
    stored = storedDeliveryDestinationSchema.parse(
      kept === undefined ? destination : { ...destination, passwordEncrypted: kept },
    );
  }

  const parameters = body.reportSpecificParameters;
  if ('toYear' in parameters || 'toMonth' in parameters)
    throw invalid('reportSpecificParameters.toMonth', SCHEDULE_MESSAGES.oneMonth);
  // Only the day its frequency reads is kept (a weekly schedule has no day of month).
  const timing = {
    frequency: body.frequency,
    time: body.time,
    dayOfWeek: body.frequency === 'weekly' ? body.dayOfWeek : null,
    dayOfMonth: body.frequency === 'monthly' ? body.dayOfMonth : null,
  };
  const nextRunAt = nextRunAfter(timing, new Date(), ctx.tenant.timeZone);
  // The order the next run makes, checked now as the saver: a wrong ref or parameter is a 400 today,
  // not an ERROR entry next month.
  const period = reportedMonth(nextRunAt, ctx.tenant.timeZone, body);
  await prepareOrder(ctx, reports, body.reportName, period, {
    refs: body.refs,
    destinations: [],
    params: {},
    format: body.format,
    language: body.language,
    reportSpecificParameters: parameters,
  });

  await upsertSchedule(ctx.db, {
    uuid,
    tenant: ctx.tenant.uuid,
    name: body.name,
    reportName: body.reportName,
    ...timing,
    daysAfterPeriod: body.daysAfterPeriod,
    monthsAfterPeriod: body.monthsAfterPeriod,
    format: body.format,
    language: body.language,
    correction: body.correction,
    refs: body.refs,
    parameters,
    destination: stored,
    owner: existing?.owner ?? ctx.actor.username,
    nextRunAt: nextRunAt.toISOString(),
  });
  return view((await findSchedule(ctx.db, ctx.tenant.uuid, uuid))!);
}

/** DELETE /processing/scheduledreports/{id}: the schedule goes; its runs stay in the data log. */
export async function deleteSchedule(ctx: ServiceContext, reports: ReportTable, uuid: string): Promise<{ id: string }> {
  await ownSchedule(ctx, reports, uuid);
  await deleteRow(ctx.db, ctx.tenant.uuid, uuid);
  return { id: uuid };
}

// --- The runner -------------------------------------------------------------------------------------

/** Who the round acts as (its job_run rows); each run acts as its schedule's owner. */
export const REPORT_SCHEDULE_ACTOR = 'system';

export interface ScheduleRoundDeps {
  database: Database;
  queue: ReportQueue;
  reports: ReportTable;
  log: FastifyBaseLogger;
}

export interface ScheduleRun {
  area: string;
  schedule: string;
  dataLogId: number | null;
  error?: string;
}

/**
 * One round (the `report-schedule` job, every minute): in every area, each schedule due at `now`
 * (next_run_at in the past, computed in the area's zone) is claimed (moved to its next instant, so
 * another node's round or the next minute does not run it again) and ordered as its owner. A missed
 * slot (the server was down) runs once, at the next round, not once per slot missed.
 */
export async function runDueSchedules(deps: ScheduleRoundDeps, now = new Date()): Promise<ScheduleRun[]> {
  const areas = await systemContexts(deps.database, {
    username: REPORT_SCHEDULE_ACTOR,
    log: deps.log,
    why: 'report schedules: the due schedules of every area',
  });
  const runs: ScheduleRun[] = [];
  for (const area of areas) {
    for (const schedule of await dueSchedules(area.db, area.tenant.uuid, now)) {
      const next = nextRunAfter(schedule, now, area.tenant.timeZone);
      if (!(await claimRun(area.db, schedule, now, next))) continue;
      runs.push(await runSchedule(deps, area, schedule, now));
    }
  }
  return runs;
}

/** The owner's context in the area: the roles held there now; none when the user is gone or disabled. */
async function ownerContext(deps: ScheduleRoundDeps, area: ServiceContext, owner: string): Promise<ServiceContext> {
  const user = await findUser(deps.database, owner);
  const roles = user?.enabled ? rolesInArea(await findMarketFunctions(deps.database, owner), area.tenant.uuid) : [];
  return { ...area, actor: { username: owner, roles, areaKind: area.tenant.kind } };
}

async function runSchedule(
  deps: ScheduleRoundDeps,
  area: ServiceContext,
  schedule: StoredSchedule,
  runAt: Date,
): Promise<ScheduleRun> {
  const ctx = await ownerContext(deps, area, schedule.owner);
  const period = reportedMonth(runAt, ctx.tenant.timeZone, schedule);
  try {
    const report = deps.reports.get(schedule.reportName);
    if (!report || !mayOrder(report, ctx.actor.roles))
      throw new UserFacingError(
        `${schedule.owner}, who owns the schedule, may no longer order the report ${schedule.reportName}`,
      );
    const prepared = await prepareOrder(ctx, deps.reports, schedule.reportName, period, {
      refs: schedule.refs,
      destinations: [],
      params: {},
      format: schedule.format,
      language: schedule.language,
      reportSpecificParameters: schedule.parameters,
    });
    const statuses = schedule.correction
      ? prepared.order.statuses.filter((s) => s === 'approved')
      : prepared.order.statuses;
    const { orderId, dataLogId } = await storeOrder(
      ctx,
      {
        ...prepared,
        order: {
          ...prepared.order,
          statuses,
          destinations: [schedule.destination],
          scheduleUuid: schedule.uuid,
          scheduleOwner: schedule.owner,
        },
      },
      MESSAGE_TYPES.scheduledReport,
    );
    await recordRunEntry(ctx.db, ctx.tenant.uuid, schedule.uuid, dataLogId);
    await queueOrFail(ctx, deps.queue, { orderId, dataLogId });
    return { area: ctx.tenant.name, schedule: schedule.name, dataLogId };
  } catch (error) {
    // A run that cannot be ordered (the owner's rights, a ref gone) is an ERROR entry with the reason,
    // where the owner looks for the file.
    const why =
      error instanceof ApiError && error.errors?.length
        ? error.errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ')
        : userMessage(error);
    const reason = `Schedule ${schedule.name}: ${why}`;
    deps.log.warn({ err: error, schedule: schedule.uuid }, 'scheduled report not ordered');
    const dataLogId = await recordFile(ctx.db, {
      tenant: ctx.tenant.uuid,
      username: schedule.owner,
      messageType: MESSAGE_TYPES.scheduledReport,
      status: 'ERROR',
      text: reason,
      fileName: `${schedule.reportName}_${period.year}-${String(period.month).padStart(2, '0')}.${
        REPORT_FORMATS.includes(schedule.format) ? schedule.format : 'csv'
      }`,
    }).catch(() => null);
    if (dataLogId !== null) await recordRunEntry(ctx.db, ctx.tenant.uuid, schedule.uuid, dataLogId);
    return { area: ctx.tenant.name, schedule: schedule.name, dataLogId, error: reason };
  }
}
