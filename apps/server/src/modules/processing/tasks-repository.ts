import type { ProcedureResult, ProcedureResultStatus, SettledConsumption } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { sumsOfChunk } from './allocated-energy.js';
import { rows, type Executor } from '../domain/sql.js';
import { organisationFilter, type VisibleOrganisations } from '../organisation/visibility.js';
import { clip } from './repository.js';

/**
 * The SQL of the procedure-result writes and of settled consumption (issue 9 item 3): set-based,
 * each over the ids of one request, on the area-bound executor (row-level security) with the
 * tenant named so the area's indexes lead.
 */

const RESULT_COLUMNS = sql`r.id::int AS id, r.uuid, r.procedure_name AS "procedureName", r.status,
  rw_iso(r.execute_start_time) AS "executeStartTime", rw_iso(r.execute_end_time) AS "executeEndTime",
  rw_iso(r.ref_time) AS "refTime", r.entity_refs AS "entityRefs", r.entity_name AS "entityName",
  rw_iso(r.period_start) AS "periodStart", rw_iso(r.period_end) AS "periodEnd",
  r.progress::float8 AS progress, r.message, r.username, r.job_id AS "jobId"`;

/** The area's results among `ids`, by id. */
export async function findResults(ex: Executor, tenant: string, ids: readonly number[]): Promise<ProcedureResult[]> {
  return rows<ProcedureResult>(
    ex,
    sql`SELECT ${RESULT_COLUMNS} FROM procedure_result r
         WHERE r.tenant = ${tenant}::uuid AND r.id = ANY(${sql.param([...ids])}::bigint[])
         ORDER BY r.id`,
  );
}

// The same scope: procedure, period and the same set of refs (in any order).
const sortedRefs = (alias: string) =>
  sql.raw(`(SELECT coalesce(array_agg(u ORDER BY u), '{}') FROM unnest(${alias}.ref_uuids) u)`);

/** The approved results of the same scope as one of `ids` (other than those): what an approval would correct. */
export async function approvedOfSameScope(
  ex: Executor,
  tenant: string,
  ids: readonly number[],
): Promise<
  { id: number; approving: number; procedureName: string; periodStart: string; periodEnd: string; refs: number }[]
> {
  return rows(
    ex,
    sql`SELECT p.id::int AS id, a.id::int AS approving, p.procedure_name AS "procedureName",
               rw_iso(p.period_start) AS "periodStart", rw_iso(p.period_end) AS "periodEnd",
               cardinality(p.ref_uuids)::int AS refs
          FROM procedure_result a
          JOIN procedure_result p
            ON p.tenant = a.tenant AND p.procedure_name = a.procedure_name
           AND p.period_start = a.period_start AND p.period_end = a.period_end
           AND p.status = 'approved' AND p.id <> a.id
           AND ${sortedRefs('p')} = ${sortedRefs('a')}
           -- The TPA settlement's versions and the plain ones are two chains (settlement's tpa option).
           AND coalesce(p.run_options ->> 'tpa', 'false') = coalesce(a.run_options ->> 'tpa', 'false')
         WHERE a.tenant = ${tenant}::uuid AND a.id = ANY(${sql.param([...ids])}::bigint[])
         ORDER BY p.id`,
  );
}

/** Sets the status (and, when given, the message) of the area's results `ids`. */
export async function setStatus(
  ex: Executor,
  tenant: string,
  ids: readonly number[],
  status: ProcedureResultStatus,
  message?: string | null,
): Promise<void> {
  if (ids.length === 0) return;
  const setMessage = message === undefined ? sql`` : sql`, message = ${clip(message)}`;
  await ex.execute(
    sql`UPDATE procedure_result SET status = ${status} ${setMessage}
         WHERE tenant = ${tenant}::uuid AND id = ANY(${sql.param([...ids])}::bigint[])`,
  );
}

/**
 * Per result and paying organisation: the energy allocated (allocated_energy_hourly, migration 0380:
 * sums per hour) in the result's period, active consumed minus regenerated (kWh). A record belongs to
 * the period when its period end lies in (start, end] (processing/allocated-energy.ts `sumsOfChunk`: the sums of
 * the hours in it). A result limited to refs counts the records whose
 * organisation, traction unit, consumption point, grid or price area is among them; one without
 * refs counts the whole area. Energy with no paying organisation (not yet allocated to one) is left
 * out: it is nobody's settled consumption. A settlement result counts what it billed instead
 * (settlement_line: metered + estimated + other + losses, issue 10). Only the `visible`
 * organisations' rows are answered (organisation/visibility.ts; null: every organisation).
 */
export async function settledConsumption(
  ex: Executor,
  tenant: string,
  ids: readonly number[],
  visible: VisibleOrganisations,
): Promise<SettledConsumption[]> {
  const found = await rows<{ procedureResultId: number; organisation: string; total: number }>(
    ex,
    sql`SELECT r.id::int AS "procedureResultId", e.organisation_uuid AS organisation,
               sum(e.active_consumed - e.active_regenerated)::float8 AS total
          FROM procedure_result r
          JOIN allocated_energy_hourly e
            ON ${sumsOfChunk(tenant, sql`r.period_start`, sql`r.period_end`, sql`e`)}
           AND e.organisation_uuid IS NOT NULL AND ${organisationFilter(sql`e.organisation_uuid`, visible)}
           AND (cardinality(r.ref_uuids) = 0
                OR e.organisation_uuid = ANY(r.ref_uuids) OR e.traction_unit_uuid = ANY(r.ref_uuids)
                OR e.consumption_point_uuid = ANY(r.ref_uuids) OR e.grid_area_uuid = ANY(r.ref_uuids)
                OR e.price_area_uuid = ANY(r.ref_uuids))
         WHERE r.tenant = ${tenant}::uuid AND r.id = ANY(${sql.param([...ids])}::bigint[])
           AND r.procedure_name <> 'settlement'
         GROUP BY r.id, e.organisation_uuid
        UNION ALL
        -- A settlement result: what it billed (metered + estimated + other + losses, settlement_line).
        SELECT r.id::int, l.organisation_uuid,
               sum(l.metered_kwh + l.estimated_kwh + l.other_kwh + l.losses_kwh)::float8
          FROM procedure_result r
          JOIN settlement_line l ON l.tenant = r.tenant AND l.procedure_result_id = r.id
           AND ${organisationFilter(sql`l.organisation_uuid`, visible)}
         WHERE r.tenant = ${tenant}::uuid AND r.id = ANY(${sql.param([...ids])}::bigint[])
           AND r.procedure_name = 'settlement'
         GROUP BY r.id, l.organisation_uuid
         ORDER BY 1, 2`,
  );
  return found.map((row) => ({
    procedureResultId: row.procedureResultId,
    organisation: { uuid: row.organisation, type: 'Organisation' },
    totalSettledConsumption: row.total,
  }));
}
