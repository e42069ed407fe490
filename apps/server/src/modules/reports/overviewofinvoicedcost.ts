import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineReport } from './define-report.js';
import { organisationScope } from './sql.js';
import { TOTAL_ROW, type Texts } from './texts.js';

/**
 * What was invoiced, month by month (docs/reports.md "overviewofinvoicedcost"): per organisation and
 * month of the range (the ordered month to toYear/toMonth), the invoice of the month's approved
 * settlement: its amount without VAT, VAT and total, what had been invoiced on account and what
 * remained due; and per organisation a total line over the range (GROUPING SETS, so it is the sum
 * of exactly the months shown).
 *
 * Only an approved settlement is invoiced, so each month reads the approved settlement version
 * covering it (the plain settlement, not TPA), whoever orders; a month without one has no row. A
 * range may span several monthly results, so the report names no one result (`source` null): the
 * version of each month is in its row.
 */
const MONTH: Texts = { en: 'Month', da: 'Måned', nb: 'Måned', sv: 'Månad', fi: 'Kuukausi', es: 'Mes' };

export const overviewOfInvoicedCostReport = defineReport({
  name: 'overviewofinvoicedcost',
  family: 'cost',
  title: {
    en: 'Overview of invoiced cost',
    da: 'Oversigt over fakturerede omkostninger',
    nb: 'Oversikt over fakturerte kostnader',
    sv: 'Översikt över fakturerade kostnader',
    fi: 'Yhteenveto laskutetuista kustannuksista',
    es: 'Resumen de costes facturados',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'months',
  refs: [{ kind: 'organisation', many: true }],
  parameters: z
    .object({
      toYear: z.number().int().min(2000).max(2100).optional(),
      toMonth: z.number().int().min(1).max(12).optional(),
    })
    .strict(),
  source: null,
  columns: [
    { key: 'organisation', kind: 'text' },
    { key: 'organisationId', kind: 'text' },
    { key: 'month', kind: 'text', texts: MONTH },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    { key: 'amountExclVat', kind: 'number', unit: 'currency' },
    { key: 'vat', kind: 'number', unit: 'currency' },
    { key: 'total', kind: 'number', unit: 'currency' },
    { key: 'onAccountCost', kind: 'number', unit: 'currency' },
    { key: 'due', kind: 'number', unit: 'currency' },
    { key: 'settlementVersion', kind: 'integer' },
  ],
  // An organisation's months in order, its total line last.
  sortKeys: ['organisation', 'organisationUuid', 'totalLine', 'month'],
  query: (scope) => {
    const excl = sql`l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost + l.grid_fee_cost
                     + l.energy_fee_cost + l.tax_cost`;
    return sql`
      WITH months AS (
        SELECT m AS local_start,
               (m AT TIME ZONE ${scope.zone}) AS start_at,
               ((m + interval '1 month') AT TIME ZONE ${scope.zone}) AS end_at
          FROM generate_series((${scope.period.start}::timestamptz AT TIME ZONE ${scope.zone}),
                               (${scope.period.end}::timestamptz AT TIME ZONE ${scope.zone}) - interval '1 day',
                               interval '1 month') AS m
      ), versions AS (
        -- Each month's approved settlement version (one approved per scope; the newest if several).
        SELECT m.local_start, m.start_at, m.end_at,
               (SELECT max(r.id) FROM procedure_result r
                 WHERE r.tenant = ${scope.tenant}::uuid AND r.procedure_name = 'settlement' AND r.status = 'approved'
                   AND coalesce(r.run_options ->> 'tpa', 'false') = 'false'
                   AND r.period_start <= m.start_at AND r.period_end >= m.end_at) AS result_id
          FROM months m
      )
      SELECT o.name AS "organisation", o.attributes ->> 'orgId' AS "organisationId",
             l.organisation_uuid AS "organisationUuid",
             CASE WHEN GROUPING(v.local_start) = 1 THEN ${TOTAL_ROW[scope.language]}::text
                  ELSE to_char(v.local_start, 'YYYY-MM') END AS "month",
             GROUPING(v.local_start) AS "totalLine",
             sum(l.metered_kwh + l.estimated_kwh + l.other_kwh + l.losses_kwh) AS "supplyEnergy",
             sum(${excl}) AS "amountExclVat", sum(l.vat_cost) AS "vat", sum(${excl} + l.vat_cost) AS "total",
             sum(l.on_account_cost) AS "onAccountCost", sum(${excl} + l.vat_cost - l.on_account_cost) AS "due",
             CASE WHEN GROUPING(v.local_start) = 0 THEN max(v.result_id) END AS "settlementVersion"
        FROM versions v
        JOIN settlement_line l ON l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = v.result_id
                              AND l.day >= v.local_start::date AND l.day < (v.local_start + interval '1 month')::date
        LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
       WHERE ${organisationScope(sql`l.organisation_uuid`, scope)}
       GROUP BY GROUPING SETS ((l.organisation_uuid, o.name, o.attributes ->> 'orgId', v.local_start),
                               (l.organisation_uuid, o.name, o.attributes ->> 'orgId'))`;
  },
});
