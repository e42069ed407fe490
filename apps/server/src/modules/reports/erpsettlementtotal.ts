import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { SETTLEMENT_COST_COLUMNS, SETTLEMENT_SUMS } from './settlement.js';
import { MORE_TEXTS } from './settlement-versions.js';
import { organisationScope, periodDays } from './sql.js';

/**
 * The month's invoice per customer for an ERP import (docs/reports.md "erpsettlementtotal"): one
 * line per organisation, its price areas together: the customer's id, the invoice month, the
 * supply energy and the invoice's amounts (energy cost, fees, tax, amount excl. VAT, VAT, total,
 * invoiced on account, due), naming the settlement version. Its totals are the customer's invoice
 * total with VAT (the sum of its settlement lines).
 */
export const erpSettlementTotalReport = defineReport({
  name: 'erpsettlementtotal',
  family: 'erp',
  title: {
    en: 'Settlement totals for the ERP system',
    da: 'Afregningstotaler til ERP-systemet',
    nb: 'Avregningstotaler til ERP-systemet',
    sv: 'Avräkningstotaler till affärssystemet',
    fi: 'Selvityksen summat toiminnanohjausjärjestelmään',
    es: 'Totales de liquidación para el ERP',
  },
  roles: AREA_WIDE_ROLES,
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'settlement' },
  columns: [
    { key: 'organisationId', kind: 'text' },
    { key: 'organisation', kind: 'text' },
    { key: 'month', kind: 'text', texts: MORE_TEXTS.month },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    ...SETTLEMENT_COST_COLUMNS,
    { key: 'settlementVersion', kind: 'integer' },
  ],
  sortKeys: ['organisationId', 'organisation', 'organisationUuid'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    return sql`
      SELECT o.attributes ->> 'orgId' AS "organisationId", o.name AS "organisation",
             l.organisation_uuid AS "organisationUuid", to_char(${first}, 'YYYY-MM') AS "month", ${SETTLEMENT_SUMS},
             ${scope.resultId}::bigint AS "settlementVersion"
        FROM settlement_line l
        LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
       WHERE l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = ${scope.resultId}::bigint
         AND l.day >= ${first} AND l.day < ${after}
         AND ${organisationScope(sql`l.organisation_uuid`, scope)}
       GROUP BY l.organisation_uuid, o.name, o.attributes ->> 'orgId'`;
  },
});
