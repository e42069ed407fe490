import type {
  ReportFormat,
  ReportLanguage,
  ReportName,
  ReportSpecificParameters,
  ScheduleFrequency,
  StoredDeliveryDestination,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { jsonColumn, rows, type Executor } from '../domain/sql.js';

/** One stored schedule (migration 0420 report_schedule). */
export interface StoredSchedule {
  uuid: string;
  tenant: string;
  name: string;
  reportName: ReportName;
  frequency: ScheduleFrequency;
  time: string;
  dayOfWeek: number | null;
  dayOfMonth: number | null;
  daysAfterPeriod: number;
  monthsAfterPeriod: number;
  format: ReportFormat;
  language: ReportLanguage;
  correction: boolean;
  refs: { uuid: string; type: string }[];
  parameters: ReportSpecificParameters;
  destination: StoredDeliveryDestination;
  owner: string;
  nextRunAt: string;
  lastRunAt: string | null;
  lastDataLogId: number | null;
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
const iso = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`);

const SELECT = sql`SELECT uuid::text, tenant::text, name, report_name AS "reportName", frequency, time_of_day AS time,
       day_of_week AS "dayOfWeek", day_of_month AS "dayOfMonth", days_after_period AS "daysAfterPeriod",
       months_after_period AS "monthsAfterPeriod", format, language, correction, refs, parameters, destination, owner,
       ${iso('next_run_at')} AS "nextRunAt", ${iso('last_run_at')} AS "lastRunAt", last_data_log_id AS "lastDataLogId"
  FROM report_schedule`;

const schedule = (row: StoredSchedule): StoredSchedule => ({
  ...row,
  refs: jsonColumn(row.refs, []),
  parameters: jsonColumn(row.parameters, {}),
  destination: jsonColumn(row.destination, { destinationType: 'my email' }),
  lastDataLogId: row.lastDataLogId === null ? null : Number(row.lastDataLogId),
});

export async function listSchedules(
  ex: Executor,
  tenant: string,
  filter: { reportName?: string; owner?: string },
): Promise<StoredSchedule[]> {
  const found = await rows<StoredSchedule>(
    ex,
    sql`${SELECT} WHERE tenant = ${tenant}::uuid
          AND (${filter.reportName ?? null}::text IS NULL OR report_name = ${filter.reportName ?? null})
          AND (${filter.owner ?? null}::text IS NULL OR owner = ${filter.owner ?? null})
        ORDER BY lower(name), uuid`,
  );
  return found.map(schedule);
}

export async function findSchedule(ex: Executor, tenant: string, uuid: string): Promise<StoredSchedule | null> {
  const [row] = await rows<StoredSchedule>(ex, sql`${SELECT} WHERE tenant = ${tenant}::uuid AND uuid = ${uuid}::uuid`);
  return row ? schedule(row) : null;
}

/** Whether another schedule of the area has the name (any case). */
export async function nameTaken(ex: Executor, tenant: string, name: string, except: string | null): Promise<boolean> {
  const found = await rows(
    ex,
    sql`SELECT 1 FROM report_schedule WHERE tenant = ${tenant}::uuid AND lower(name) = lower(${name})
          AND (${except}::uuid IS NULL OR uuid <> ${except}::uuid)`,
  );
  return found.length > 0;
}

export type ScheduleWrite = Omit<StoredSchedule, 'lastRunAt' | 'lastDataLogId'>;

/** Inserts a schedule, or changes one (its owner and run history stay). */
export async function upsertSchedule(ex: Executor, s: ScheduleWrite): Promise<void> {
  await ex.execute(
    sql`INSERT INTO report_schedule (uuid, tenant, name, report_name, frequency, time_of_day, day_of_week, day_of_month,
                                     days_after_period, months_after_period, format, language, correction, refs,
                                     parameters, destination, owner, next_run_at)
        VALUES (${s.uuid}::uuid, ${s.tenant}::uuid, ${s.name}, ${s.reportName}, ${s.frequency}, ${s.time},
                ${s.dayOfWeek}::smallint, ${s.dayOfMonth}::smallint, ${s.daysAfterPeriod}, ${s.monthsAfterPeriod},
                ${s.format}, ${s.language}, ${s.correction}, ${json(s.refs)}, ${json(s.parameters)},
                ${json(s.destination)}, ${s.owner}, ${s.nextRunAt}::timestamptz)
        ON CONFLICT (uuid) DO UPDATE SET
          name = excluded.name, frequency = excluded.frequency, time_of_day = excluded.time_of_day,
          day_of_week = excluded.day_of_week, day_of_month = excluded.day_of_month,
          days_after_period = excluded.days_after_period, months_after_period = excluded.months_after_period,
          format = excluded.format, language = excluded.language, correction = excluded.correction,
          refs = excluded.refs, parameters = excluded.parameters, destination = excluded.destination,
          next_run_at = excluded.next_run_at, updated_at = now()
        WHERE report_schedule.tenant = excluded.tenant`,
  );
}

export async function deleteSchedule(ex: Executor, tenant: string, uuid: string): Promise<void> {
  await ex.execute(sql`DELETE FROM report_schedule WHERE tenant = ${tenant}::uuid AND uuid = ${uuid}::uuid`);
}

/** The area's schedules due at `now`. */
export async function dueSchedules(ex: Executor, tenant: string, now: Date): Promise<StoredSchedule[]> {
  const found = await rows<StoredSchedule>(
    ex,
    sql`${SELECT} WHERE tenant = ${tenant}::uuid AND next_run_at <= ${now.toISOString()}::timestamptz
        ORDER BY next_run_at, uuid`,
  );
  return found.map(schedule);
}

/**
 * Claims a due run: moves next_run_at (still due at `now`) to `next`, after `now`, and records the
 * run. Only one node's round wins a run (the other finds the row no longer due); answers whether
 * this one did.
 */
export async function claimRun(
  ex: Executor,
  s: Pick<StoredSchedule, 'tenant' | 'uuid'>,
  now: Date,
  next: Date,
): Promise<boolean> {
  const claimed = await rows(
    ex,
    sql`UPDATE report_schedule SET next_run_at = ${next.toISOString()}::timestamptz,
                                   last_run_at = ${now.toISOString()}::timestamptz
         WHERE tenant = ${s.tenant}::uuid AND uuid = ${s.uuid}::uuid AND next_run_at <= ${now.toISOString()}::timestamptz
        RETURNING uuid`,
  );
  return claimed.length > 0;
}

export async function recordRunEntry(ex: Executor, tenant: string, uuid: string, dataLogId: number): Promise<void> {
  await ex.execute(
    sql`UPDATE report_schedule SET last_data_log_id = ${dataLogId} WHERE tenant = ${tenant}::uuid AND uuid = ${uuid}::uuid`,
  );
}
