import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { SETTLEMENT_LINES_ORDER, SETTLEMENT_SUMS } from './settlement.js';
import { organisationScope, periodDays } from './sql.js';
import { TOTAL_ROW } from './texts.js';

/**
 * The month's invoice appendix per customer (docs/reports.md "customerinvoicemonthappendix"): for
 * each organisation its settlement lines per price area and then its total line, which is the
 * invoice's total with VAT (GROUPING SETS: the lines and their sum in one statement, so the total is
 * the sum of exactly the lines shown).
 */
export const customerInvoiceMonthAppendixReport = defineReport({
  name: 'customerinvoicemonthappendix',
  family: 'settlement',
  title: {
    en: 'Customer invoice appendix for the month',
    da: 'Kundens fakturabilag for måneden',
    nb: 'Kundens fakturavedlegg for måneden',
    sv: 'Kundens fakturabilaga för månaden',
    fi: 'Asiakkaan kuukauden laskuliite',
    es: 'Anexo de la factura mensual del cliente',
  },
  ...SETTLEMENT_LINES_ORDER,
  // The lines of an organisation by price area, its total line last.
  sortKeys: ['organisation', 'organisationUuid', 'totalLine', 'priceArea'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    return sql`
      SELECT o.name AS "organisation", o.attributes ->> 'orgId' AS "organisationId",
             CASE WHEN GROUPING(p.name) = 1 THEN ${TOTAL_ROW[scope.language]}::text ELSE p.name END AS "priceArea",
             GROUPING(p.name) AS "totalLine", l.organisation_uuid AS "organisationUuid", ${SETTLEMENT_SUMS},
             ${scope.resultId}::bigint AS "settlementVersion"
        FROM settlement_line l
        LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
        LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
       WHERE l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = ${scope.resultId}::bigint
         AND l.day >= ${first} AND l.day < ${after}
         AND ${organisationScope(sql`l.organisation_uuid`, scope)}
       GROUP BY GROUPING SETS ((l.organisation_uuid, o.name, o.attributes ->> 'orgId', p.name),
                               (l.organisation_uuid, o.name, o.attributes ->> 'orgId'))`;
  },
});
