import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { ReportScope } from './define-report.js';
import type { Texts } from './texts.js';

/**
 * The settlement version each month of a report's period is read from, for the reports over a range
 * of months (settlementoverview, portugal-settlementoverview, accumulatedenergysettlementdependency):
 * each month is settled on its own, so no one result covers the range. One row per month of the
 * period on the zone's calendar that has a settlement result with one of the order's statuses
 * covering it: the approved one first, else the newest (calls.md §4, as the kit's newest result), or
 * the one processingId names. A month without one has no row (the report holds nothing for it).
 *
 * Columns: month_first and month_after (the month's first day and the next month's, area days as
 * settlement_line.day), month ('2026-10'), result_id, status.
 */
export function monthVersions(scope: ReportScope, options: { tpa?: boolean } = {}): SQL {
  return sql`
    SELECT DISTINCT ON (m.first) m.first AS month_first, m.after AS month_after, to_char(m.first, 'YYYY-MM') AS month,
           r.id AS result_id, r.status AS status
      FROM (SELECT s::date AS first, (s + interval '1 month')::date AS after,
                   s AT TIME ZONE ${scope.zone} AS starts, (s + interval '1 month') AT TIME ZONE ${scope.zone} AS ends
              FROM generate_series(date_trunc('month', ${scope.period.start}::timestamptz AT TIME ZONE ${scope.zone}),
                                   (${scope.period.end}::timestamptz AT TIME ZONE ${scope.zone}) - interval '1 day',
                                   interval '1 month') AS s) AS m
      JOIN procedure_result r
        ON r.tenant = ${scope.tenant}::uuid AND r.procedure_name = 'settlement'
       AND r.status = ANY(${sql.param([...scope.statuses])}::text[])
       AND r.period_start <= m.starts AND r.period_end >= m.ends
       AND coalesce(r.run_options ->> 'tpa', 'false') = ${String(options.tpa ?? false)}
       AND (${scope.resultId}::bigint IS NULL OR r.id = ${scope.resultId}::bigint)
     ORDER BY m.first, (r.status = 'approved') DESC, r.id DESC`;
}

/** A range's last month, reportSpecificParameters toYear/toMonth (service.ts orderPeriod reads them). */
export const RANGE_PARAMETERS = z
  .object({
    toYear: z.number().int().min(2000).max(2100).optional(),
    toMonth: z.number().int().min(1).max(12).optional(),
  })
  .strict();

/** Column texts of the reports of this second half that no shared column has. */
export const MORE_TEXTS = {
  month: { en: 'Month', da: 'Måned', nb: 'Måned', sv: 'Månad', fi: 'Kuukausi', es: 'Mes' },
  versionStatus: {
    en: 'Version status',
    da: 'Versionens status',
    nb: 'Versjonens status',
    sv: 'Versionens status',
    fi: 'Version tila',
    es: 'Estado de la versión',
  },
  organisations: {
    en: 'Organisations',
    da: 'Organisationer',
    nb: 'Organisasjoner',
    sv: 'Organisationer',
    fi: 'Organisaatiot',
    es: 'Organizaciones',
  },
} as const satisfies Record<string, Texts>;
