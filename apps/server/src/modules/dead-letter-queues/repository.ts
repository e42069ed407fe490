import type { ProcedureName } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';

/** A failed run as the area sees it (job_run under row-level security), with what it was about. */
export interface DeadRun {
  id: string;
  name: string;
  attempts: number;
  message: string | null;
  username: string;
  payload: unknown;
  dataLogId: number | null;
  fileName: string | null;
  messageType: string | null;
  procedureResultId: number | null;
  procedureName: ProcedureName | null;
  periodStart: string | null;
  periodEnd: string | null;
  status: string | null;
}

/**
 * The runs `ids` of the area, read through job_run (row-level security: another area's run is not
 * found, whatever the queue said), joined to the procedure result a procedure-run job executes and
 * to the data-log entry of a file's job. One statement for the whole list.
 */
export async function findDeadRuns(ex: Executor, tenant: string, ids: readonly string[]): Promise<DeadRun[]> {
  if (ids.length === 0) return [];
  return rows<DeadRun>(
    ex,
    sql`SELECT j.id, j.name, j.attempts, j.message, j.username, j.payload, j.data_log_id::int AS "dataLogId",
               d.file_name AS "fileName", d.message_type AS "messageType",
               r.id::int AS "procedureResultId", r.procedure_name AS "procedureName",
               rw_iso(r.period_start) AS "periodStart", rw_iso(r.period_end) AS "periodEnd", r.status
          FROM job_run j
          LEFT JOIN data_log d ON d.id = j.data_log_id
          LEFT JOIN procedure_result r
            ON j.name = 'procedure-run' AND jsonb_typeof(j.payload -> 'procedureResultId') = 'number'
           AND r.id = (j.payload ->> 'procedureResultId')::bigint AND r.tenant = j.tenant
         WHERE j.tenant = ${tenant}::uuid AND j.id = ANY(${sql.param([...ids])}::uuid[])`,
  );
}
