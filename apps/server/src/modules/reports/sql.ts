import { sql, type SQL } from 'drizzle-orm';
import { organisationFilter } from '../organisation/visibility.js';
import type { ReportScope } from './define-report.js';

/**
 * The clauses every report's query shares: the orderer's organisations (visibility.ts: a consumer's
 * own, every one for the area's staff) and the order's refs of a kind, as conditions on a column.
 */

/** `column` is one of the organisations the orderer may see and, when the order names some, one of those. */
export function organisationScope(column: SQL, scope: ReportScope): SQL {
  const named = scope.refs.organisation;
  return sql`${organisationFilter(column, scope.organisations)} AND ${
    named && named.length > 0 ? sql`${column} = ANY(${sql.param([...named])}::uuid[])` : sql`true`
  }`;
}

/** `column` is one of the order's refs of `kind`; true when it names none. */
export function refScope(column: SQL, uuids: readonly string[] | undefined): SQL {
  return uuids && uuids.length > 0 ? sql`${column} = ANY(${sql.param([...uuids])}::uuid[])` : sql`true`;
}

/** Grid areas of the order's energy use settlement areas (their energyUseSettlementAreaRef), when it names any. */
export function eusaScope(gridAreaColumn: SQL, scope: ReportScope): SQL {
  const eusa = scope.refs.energyusesettlementarea;
  if (!eusa || eusa.length === 0) return sql`true`;
  return sql`${gridAreaColumn} IN (SELECT g.entity_uuid FROM entity_latest g
                                    WHERE g.tenant = ${scope.tenant}::uuid AND g.type = 'gridarea'
                                      AND g.attributes ->> 'energyUseSettlementAreaRef' = ANY(${sql.param([...eusa])}::text[]))`;
}

/** The period's first day and the day after its last, on the zone's calendar (settlement lines are per area day). */
export const periodDays = (scope: ReportScope): { first: SQL; after: SQL } => ({
  first: sql`(${scope.period.start}::timestamptz AT TIME ZONE ${scope.zone})::date`,
  after: sql`(${scope.period.end}::timestamptz AT TIME ZONE ${scope.zone})::date`,
});
