import {
  areaCurrency,
  MAX_REPORT_MONTHS,
  MAX_REPORT_REFS,
  MESSAGE_TYPES,
  REPORT_REF_TYPES,
  reportOrderBodySchema,
  type FieldError,
  type ReportDescription,
  type ReportLanguage,
  type ReportLocales,
  type ReportName,
  type ReportOrderAnswer,
  type ReportOrderQuery,
  type ReportRefKind,
  type TaskOrReportBody,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { ServiceContext } from '../../context.js';
import { UserFacingError, ApiError, userMessage } from '../../errors.js';
import { REPORT_RENDERERS, type RenderRow } from '../../formats/report/index.js';
import { finishFile, noteRunningFile, recordFile } from '../datalog/datalog-service.js';
import { removeFileBytes, writeFileBytes } from '../datalog/file-store.js';
import type { DataLogActionList } from '../datalog/registry.js';
import type { StoredEntry } from '../datalog/repository.js';
import { monthRange } from '../processing/service.js';
import { visibleOrganisations } from '../organisation/visibility.js';
import {
  columnHeader,
  describeReport,
  mayOrder,
  offeredIn,
  reportLocales,
  sourceStatuses,
  type ReportDefinition,
  type ReportScope,
} from './define-report.js';
import {
  entityNames,
  findOrder,
  findOrderOfEntry,
  insertOrder,
  markFinished,
  markStarted,
  newestResult,
  resultOf,
  type NewReportOrder,
  type ReportOrder,
} from './repository.js';
import { reportRows, TOTAL_ROWS } from './rows.js';
import { deliverOrderedReport, deliveryText } from './delivery.js';
import type { DeliverySettings } from '../delivery/service.js';

/**
 * Reports (issue 20 items 1 and 3): the list a user may order, an order (checked, stored as an
 * "Ordered report" data-log entry RUNNING and a report_order row, then made by the `report-order`
 * job), the making (one query streamed through a renderer into the entry's file), and the re-order
 * of an ERROR report (calls.md §4). The reports themselves are the definitions of ALL_REPORTS
 * (index.ts), passed in as a table.
 */

export type ReportTable = ReadonlyMap<string, ReportDefinition>;

export const reportTable = (reports: readonly ReportDefinition[]): ReportTable => {
  const table = new Map<string, ReportDefinition>();
  for (const report of reports) {
    if (table.has(report.name)) throw new Error(`Report ${report.name} is defined twice`);
    table.set(report.name, report);
  }
  return table;
};

/** Queues the job that makes an order (jobs/report-order.ts); answers the job run's id. */
export type ReportQueue = (ctx: ServiceContext, order: { orderId: number; dataLogId: number }) => Promise<string>;

const NOT_AUTHORIZED = 'Not authorized';
/** calls.md §5 "required 'The {field} field is required'". */
const required = (field: string) => `The ${field} field is required`;
const invalid = (errors: FieldError[]) => ApiError.badRequestMany(errors);

/** GET /domain/reports: the reports the user may order, with their parameters, statuses and columns. */
export function listReports(ctx: ServiceContext, reports: ReportTable, language: ReportLanguage): ReportDescription[] {
  const currency = areaCurrency(ctx.tenant.kind);
  return [...reports.values()]
    .filter((r) => mayOrder(r, ctx.actor.roles) && offeredIn(r, ctx.tenant.kind))
    .map((r) => describeReport(r, ctx.actor.roles, language, currency));
}

/** GET /domain/reports/{report}: its texts in every language; a report the user may not order is 403. */
export function describeLocales(ctx: ServiceContext, reports: ReportTable, name: ReportName): ReportLocales {
  const report = reports.get(name);
  if (!report || !offeredIn(report, ctx.tenant.kind)) throw ApiError.notFound(`The report ${name} is not available`);
  if (!mayOrder(report, ctx.actor.roles)) throw ApiError.forbidden(NOT_AUTHORIZED);
  return reportLocales(report);
}

/** The kind a body ref's type names: the domain type (Organisation ...) or the kind itself, any case. */
function refKind(type: string): Exclude<ReportRefKind, 'operatingday'> | undefined {
  const lower = type.toLowerCase();
  return (Object.entries(REPORT_REF_TYPES) as [Exclude<ReportRefKind, 'operatingday'>, string][]).find(
    ([kind, domainType]) => kind === lower || domainType.toLowerCase() === lower,
  )?.[0];
}

/** The value at a zod issue's path in what was sent (undefined when absent). */
const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );

/** zod's issues as the catalogue's field errors; a missing field is "The {field} field is required". */
const zodErrors = (error: z.ZodError, prefix: string, input: unknown): FieldError[] =>
  error.issues.map((issue) => {
    const field = [prefix, ...issue.path.map(String)].join('.');
    const name = issue.path.map(String).join('.') || prefix;
    const missing =
      issue.path.length > 0 && valueAt(input, issue.path) === undefined && issue.code !== 'unrecognized_keys';
    return { code: 'invalid_input', field, message: missing ? required(name) : issue.message };
  });

const isoDay = z.iso.date();

/** What procedureName may say in an order: the report's name, or the procedure whose result it reads. */
const allowedNames = (report: ReportDefinition): string[] =>
  report.source ? [report.name, report.source.procedure] : [report.name];

/** The period an order covers: the query's month, or (a report over months) to toYear/toMonth. */
function orderPeriod(report: ReportDefinition, query: ReportOrderQuery, zone: string, parameters: unknown) {
  const first = monthRange(query.year, query.month, zone);
  if (report.period === 'month') return first;
  const p = parameters as { toYear?: number; toMonth?: number };
  if (p.toYear === undefined || p.toMonth === undefined) return first;
  const last = monthRange(p.toYear, p.toMonth, zone);
  const months = (p.toYear - query.year) * 12 + (p.toMonth - query.month) + 1;
  if (months < 1)
    throw invalid([
      { code: 'invalid_input', field: 'reportSpecificParameters.toMonth', message: 'From date must be before to date' },
    ]);
  if (months > MAX_REPORT_MONTHS)
    throw invalid([
      {
        code: 'invalid_input',
        field: 'reportSpecificParameters.toMonth',
        message: `To date must be within ${MAX_REPORT_MONTHS} months after from date`,
      },
    ]);
  return { start: first.start, end: last.end };
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * POST /processing/tasks/{reportName}: checks the order against the report's definition (who, refs,
 * parameters, the named result), stores the "Ordered report" entry (RUNNING, no file yet) and the
 * order in one transaction, then queues its job. Answers the job (GET /jobs/{id} follows it) and
 * the entry. Destinations are stored with the order; delivering them is the report delivery's.
 */
export async function orderReport(
  ctx: ServiceContext,
  queue: ReportQueue,
  reports: ReportTable,
  name: ReportName,
  query: ReportOrderQuery,
  rawBody: TaskOrReportBody,
): Promise<ReportOrderAnswer> {
  const prepared = await prepareOrder(ctx, reports, name, query, rawBody);
  const { orderId, dataLogId } = await storeOrder(ctx, prepared, MESSAGE_TYPES.orderedReport);
  const jobId = await queueOrFail(ctx, queue, { orderId, dataLogId });
  return { reportName: name, jobId, dataLogId, fileName: prepared.fileName };
}

/** An order checked and resolved, ready to be stored (prepareOrder). */
export interface PreparedOrder {
  order: Omit<NewReportOrder, 'dataLogId'>;
  fileName: string;
  contentType: string;
  /** The organisations the entry holds (the named ones, else what the orderer may see; null: all). */
  organisations: readonly string[] | null;
}

/**
 * Checks an order against the report's definition as `ctx.actor` (who: 403; refs, parameters and the
 * named result: 400 in the catalogue's words) and resolves it (period, names, statuses, the
 * organisations the orderer may see, the file's name). The order call and a schedule (its save, and
 * each run as the owner: modules/report-schedules) check orders here and nowhere else.
 */
export async function prepareOrder(
  ctx: ServiceContext,
  reports: ReportTable,
  name: ReportName,
  query: ReportOrderQuery,
  rawBody: TaskOrReportBody,
): Promise<PreparedOrder> {
  const report = reports.get(name);
  if (!report || !offeredIn(report, ctx.tenant.kind))
    throw ApiError.badRequest('invalid_input', `The report ${name} is not available`);
  if (!mayOrder(report, ctx.actor.roles)) throw ApiError.forbidden(NOT_AUTHORIZED);
  const parsedBody = reportOrderBodySchema.safeParse(rawBody);
  if (!parsedBody.success) throw invalid(zodErrors(parsedBody.error, 'body', rawBody));
  const body = parsedBody.data;
  if (body.procedureName !== undefined && !allowedNames(report).includes(body.procedureName))
    throw invalid([
      { code: 'invalid_input', field: 'procedureName', message: `procedureName ${body.procedureName} is not ${name}` },
    ]);
  if (query.procedureName !== undefined && !allowedNames(report).includes(query.procedureName))
    throw invalid([
      { code: 'invalid_input', field: 'procedureName', message: `procedureName ${query.procedureName} is not ${name}` },
    ]);

  // The report's own parameters (operatingDay is the kit's: a ref of kind operatingday).
  const { operatingDay, ...own } = body.reportSpecificParameters as Record<string, unknown>;
  const takesDay = report.refs.some((r) => r.kind === 'operatingday');
  const parameters = report.parameters.safeParse(own);
  if (!parameters.success) throw invalid(zodErrors(parameters.error, 'reportSpecificParameters', own));
  const errors: FieldError[] = [];
  if (operatingDay !== undefined && (!takesDay || !isoDay.safeParse(operatingDay).success))
    errors.push({ code: 'invalid_input', field: 'reportSpecificParameters.operatingDay', message: 'Invalid input' });

  // Refs: each of a kind the report takes, at most MAX_REPORT_REFS of a kind, every required one given.
  const byKind = new Map<Exclude<ReportRefKind, 'operatingday'>, string[]>();
  for (const [i, ref] of body.refs.entries()) {
    const kind = refKind(ref.type);
    if (!kind || !report.refs.some((r) => r.kind === kind)) {
      errors.push({
        code: 'invalid_input',
        field: `refs.${i}.type`,
        message: `The report ${name} takes no ${ref.type} ref`,
      });
      continue;
    }
    byKind.set(kind, [...new Set([...(byKind.get(kind) ?? []), ref.uuid])]);
  }
  for (const ref of report.refs) {
    const given =
      ref.kind === 'operatingday' ? (operatingDay === undefined ? 0 : 1) : (byKind.get(ref.kind)?.length ?? 0);
    if (ref.required && given === 0)
      errors.push({ code: 'invalid_input', field: `refs.${ref.kind}`, message: required(ref.kind) });
    if (given > (ref.many ? MAX_REPORT_REFS : 1))
      errors.push({
        code: 'invalid_input',
        field: `refs.${ref.kind}`,
        message: `At most ${ref.many ? MAX_REPORT_REFS : 1} items`,
      });
  }
  if (errors.length > 0) throw invalid(errors);

  // The refs are the area's entities of their kind (another area's uuid is unknown here).
  const names = await entityNames(ctx.db, ctx.tenant.uuid, [...byKind.values()].flat());
  const refsNames: Record<string, string> = {};
  for (const [kind, uuids] of byKind) {
    const found = uuids.map((uuid) => names.find((n) => n.uuid === uuid && n.type === kind));
    if (found.some((f) => !f))
      errors.push({ code: 'invalid_input', field: `refs.${kind}`, message: `Unknown ${kind}` });
    else refsNames[kind] = found.map((f) => f!.name).join(', ');
  }
  if (typeof operatingDay === 'string') refsNames.operatingday = operatingDay;
  if (errors.length > 0) throw invalid(errors);

  // What the orderer may see: a named organisation must be one of its own.
  const organisations = await visibleOrganisations(ctx);
  const named = byKind.get('organisation') ?? [];
  if (organisations !== null && named.some((o) => !organisations.includes(o))) throw ApiError.forbidden(NOT_AUTHORIZED);

  const zone = body.zoneId ?? query.zoneId ?? ctx.tenant.timeZone;
  const period = orderPeriod(report, query, zone, parameters.data);
  const statuses = sourceStatuses(report.source, ctx.actor.roles);
  if (query.processingId !== undefined) {
    const result = await resultOf(ctx.db, ctx.tenant.uuid, query.processingId);
    if (
      !report.source ||
      !result ||
      result.procedure !== report.source.procedure ||
      !statuses.includes(result.status as never) ||
      result.tpa !== (report.source.tpa ?? false)
    )
      throw invalid([
        {
          code: 'invalid_input',
          field: 'processingId',
          message: report.source
            ? `Result ${query.processingId} is not a ${report.source.tpa ? 'TPA ' : ''}${report.source.procedure} result with status ${statuses.join(' or ')}`
            : `The report ${name} reads no procedure result`,
        },
      ]);
  }

  const renderer = REPORT_RENDERERS[body.format];
  const month = `${query.year}-${pad(query.month)}`;
  const p = parameters.data as { toYear?: number; toMonth?: number };
  // The same rule as orderPeriod: a range only with both toYear and toMonth.
  const to =
    report.period === 'months' && p.toYear !== undefined && p.toMonth !== undefined
      ? `_${p.toYear}-${pad(p.toMonth)}`
      : '';
  const fileName = `${name}_${month}${to}.${renderer.extension}`;
  const entryOrganisations = named.length > 0 ? named : organisations;
  const order: Omit<NewReportOrder, 'dataLogId'> = {
    tenant: ctx.tenant.uuid,
    reportName: name,
    format: body.format,
    language: body.language,
    zoneId: zone,
    periodStart: period.start,
    periodEnd: period.end,
    refs: body.refs,
    refsNames,
    parameters: { ...(parameters.data as object), ...(typeof operatingDay === 'string' ? { operatingDay } : {}) },
    destinations: body.destinations,
    processingId: query.processingId ?? null,
    refTime: query.refTime ?? null,
    statuses,
    organisations: organisations === null ? null : [...organisations],
    username: ctx.actor.username,
    scheduleUuid: null,
    scheduleOwner: null,
  };
  return { order, fileName, contentType: renderer.contentType, organisations: entryOrganisations };
}

/** Queues an order's job; an order that cannot be queued is ERROR at once (never RUNNING forever). */
export async function queueOrFail(
  ctx: ServiceContext,
  queue: ReportQueue,
  order: { orderId: number; dataLogId: number },
) {
  try {
    return await queue(ctx, order);
  } catch (error) {
    await finishFile(ctx.db, ctx.tenant.uuid, order.dataLogId, {
      status: 'ERROR',
      text: 'The report could not be queued',
    });
    throw error;
  }
}

/**
 * The entry (RUNNING, no bytes) and the order, in one transaction: an "Ordered report", or a
 * "Scheduled report" (a schedule's run, modules/report-schedules).
 */
export async function storeOrder(
  ctx: ServiceContext,
  { order, fileName, contentType, organisations }: PreparedOrder,
  messageType: typeof MESSAGE_TYPES.orderedReport | typeof MESSAGE_TYPES.scheduledReport,
  reorderOf: number | null = null,
): Promise<{ orderId: number; dataLogId: number }> {
  return ctx.db.transaction(async (tx) => {
    const dataLogId = await recordFile(tx, {
      tenant: ctx.tenant.uuid,
      username: ctx.actor.username,
      messageType,
      status: 'RUNNING',
      text: messageType === MESSAGE_TYPES.scheduledReport ? 'Scheduled' : 'Ordered',
      fileName,
      contentType,
      destination: destinationText(order.destinations),
      organisations,
    });
    const orderId = await insertOrder(tx, { ...order, dataLogId, reorderOf });
    return { orderId, dataLogId };
  });
}

function destinationText(destinations: readonly unknown[]): string | null {
  const parts = destinations.map((d) => {
    const x = d as { address?: string; host?: string; webserviceUri?: string; destinationType?: string };
    return x.address ?? x.host ?? x.webserviceUri ?? x.destinationType ?? '';
  });
  return parts.length > 0 ? parts.join('; ') : null;
}

export interface MakeOptions {
  /** The embedded database: rows in pages, not a cursor (rows.ts). */
  embedded: boolean;
  /** Where the order's destinations are delivered through (delivery.ts); none: the file stays in the data log. */
  delivery?: DeliverySettings;
  progress?: (fraction: number, message: string) => void;
  batchRows?: number;
}

/**
 * Makes an order's file (the report-order job): the result it reads (named, or the newest with the
 * order's statuses), the report's query streamed in batches through the format's renderer into the
 * entry's bytes, then the entry OK with the row count. Whatever fails makes the entry ERROR with the
 * reason and leaves no partial file; the answer says which.
 */
export async function makeReport(
  ctx: ServiceContext,
  reports: ReportTable,
  orderId: number,
  options: MakeOptions,
): Promise<{ status: 'success' | 'failure'; message: string }> {
  const order = await findOrder(ctx.db, ctx.tenant.uuid, orderId);
  if (!order) return { status: 'failure', message: `No report order ${orderId} in this area` };
  await markStarted(ctx.db, ctx.tenant.uuid, order.id);
  let processingId: number | null = order.processingId;
  try {
    const report = reports.get(order.reportName);
    if (!report) throw new UserFacingError(`The report ${order.reportName} is not available`);
    if (report.source && !report.source.perMonth && processingId === null) {
      processingId = await newestResult(ctx.db, ctx.tenant.uuid, {
        procedure: report.source.procedure,
        statuses: order.statuses,
        start: order.periodStart,
        end: order.periodEnd,
        tpa: report.source.tpa ?? false,
      });
      if (processingId === null)
        throw new UserFacingError(
          `No ${report.source.procedure} result with status ${order.statuses.join(' or ')} covers the period`,
        );
    }
    const currency = areaCurrency(ctx.tenant.kind);
    const refs: ReportScope['refs'] = {};
    for (const ref of order.refs) {
      const kind = refKind(ref.type);
      if (kind) refs[kind] = [...(refs[kind] ?? []), ref.uuid];
    }
    const scope: ReportScope = {
      tenant: ctx.tenant.uuid,
      zone: order.zoneId,
      currency,
      language: order.language,
      period: { start: order.periodStart, end: order.periodEnd },
      refs,
      organisations: order.organisations,
      resultId: processingId,
      statuses: order.statuses,
      refTime: order.refTime ?? order.periodEnd,
      parameters: order.parameters,
    };
    const query = report.query(scope);
    const renderer = REPORT_RENDERERS[order.format];
    let written = 0;
    let total = 0;
    const counted = async function* (batches: AsyncIterable<RenderRow[]>) {
      for await (const batch of batches) {
        if (written === 0) total = Number(batch[0]?.[TOTAL_ROWS] ?? 0);
        yield batch;
        written += batch.length;
        options.progress?.(total === 0 ? 1 : written / total, `${written} of ${total} rows`);
      }
    };
    const bytes = renderer.render(
      {
        reportName: report.name,
        family: report.family,
        title: report.title[order.language],
        language: order.language,
        area: ctx.tenant.name,
        zone: order.zoneId,
        currency,
        period: scope.period,
        generatedAt: new Date().toISOString(),
        columns: report.columns.map((c) => ({
          key: c.key,
          kind: c.kind,
          header: columnHeader(c, order.language, currency),
        })),
      },
      counted(reportRows(ctx.db, query, report.sortKeys, { embedded: options.embedded, batchRows: options.batchRows })),
    );
    await writeFileBytes(ctx.db, ctx.tenant.uuid, order.dataLogId, bytes);
    const made = `${written} rows${processingId !== null ? ` from result ${processingId}` : ''}`;
    // The file is made; a destination that did not take it makes the entry ERROR with the reason
    // (the file stays downloadable, and a re-order makes and sends it again).
    const outcomes = options.delivery
      ? await deliverOrderedReport(
          ctx,
          options.delivery,
          order,
          { title: report.title[order.language], contentType: renderer.contentType },
          (text) => noteRunningFile(ctx.db, ctx.tenant.uuid, order.dataLogId, text),
        )
      : [];
    const undelivered = outcomes.some((o) => !o.ok);
    const message = outcomes.length > 0 ? `${made}; ${deliveryText(outcomes)}` : made;
    await finishFile(ctx.db, ctx.tenant.uuid, order.dataLogId, { status: undelivered ? 'ERROR' : 'OK', text: message });
    await markFinished(ctx.db, ctx.tenant.uuid, order.id, { rowCount: written, processingId });
    return { status: undelivered ? 'failure' : 'success', message };
  } catch (error) {
    const reason = userMessage(error);
    if (!(error instanceof UserFacingError)) ctx.log.error({ err: error, orderId }, 'report failed');
    await removeFileBytes(ctx.db, ctx.tenant.uuid, order.dataLogId).catch(() => undefined);
    await finishFile(ctx.db, ctx.tenant.uuid, order.dataLogId, { status: 'ERROR', text: reason });
    await markFinished(ctx.db, ctx.tenant.uuid, order.id, { rowCount: null, processingId });
    return { status: 'failure', message: reason };
  }
}

/** An order whose process died (the job's onInterrupted): ERROR, so it can be re-ordered. */
export async function failInterruptedOrder(ctx: ServiceContext, orderId: number, message: string): Promise<void> {
  const order = await findOrder(ctx.db, ctx.tenant.uuid, orderId);
  if (!order) return;
  await removeFileBytes(ctx.db, ctx.tenant.uuid, order.dataLogId).catch(() => undefined);
  await finishFile(ctx.db, ctx.tenant.uuid, order.dataLogId, { status: 'ERROR', text: message });
  await markFinished(ctx.db, ctx.tenant.uuid, order.id, { rowCount: null, processingId: null });
}

/**
 * Re-order of an ERROR report (calls.md §4: administrator or settlement operator; the data log checks
 * who and which entry): the same order as a new entry and job, made with what the original order
 * resolved (its statuses and organisations), whoever re-orders it. The original becomes RETRIED,
 * naming the new entry.
 */
export async function reorderReport(ctx: ServiceContext, queue: ReportQueue, entry: StoredEntry) {
  const original: ReportOrder | null = await findOrderOfEntry(ctx.db, ctx.tenant.uuid, entry.id);
  if (!original) throw ApiError.badRequest('invalid_input', 'Could not reorder report: the entry holds no order');
  const { id, dataLogId: _old, ...order } = original;
  const organisations = await entryOrganisations(ctx, entry.id);
  const { orderId, dataLogId } = await storeOrder(
    ctx,
    {
      order: { ...order, username: ctx.actor.username },
      fileName: entry.fileName ?? `${original.reportName}.${REPORT_RENDERERS[original.format].extension}`,
      contentType: REPORT_RENDERERS[original.format].contentType,
      organisations,
    },
    // A scheduled report's re-order is a scheduled report again (its destination is the schedule's).
    original.scheduleUuid === null ? MESSAGE_TYPES.orderedReport : MESSAGE_TYPES.scheduledReport,
    id,
  );
  await queueOrFail(ctx, queue, { orderId, dataLogId });
  return {
    dataLogId,
    messageStatus: 'RETRIED',
    messageText: `Re-ordered by ${ctx.actor.username} as entry ${dataLogId}`,
  };
}

async function entryOrganisations(ctx: ServiceContext, dataLogId: number): Promise<string[] | null> {
  const result = await ctx.db.execute(
    sql`SELECT organisation_uuids::text[] AS o FROM data_log WHERE tenant = ${ctx.tenant.uuid}::uuid AND id = ${dataLogId}`,
  );
  return ((result.rows[0] as { o: string[] | null } | undefined)?.o ?? null) as string[] | null;
}

/**
 * The re-order of report entries (the app's table of data-log actions, app.ts, with the app's
 * queue). Scheduled reports' entries are made by the same job from the same kind of order, so they
 * re-order the same way.
 */
export function reportReorderers(queue: ReportQueue): DataLogActionList {
  return [MESSAGE_TYPES.orderedReport, MESSAGE_TYPES.scheduledReport].map((type) => [
    type,
    (ctx: ServiceContext, entry: StoredEntry) => reorderReport(ctx, queue, entry),
  ]);
}
