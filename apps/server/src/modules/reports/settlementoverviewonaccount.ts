import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { ON_ACCOUNT_TEXTS } from './onaccountappendix.js';
import { organisationScope, periodDays } from './sql.js';
import type { Texts } from './texts.js';

/**
 * The reconciliation of the on-account amounts by the month's final settlement (docs/reports.md
 * "settlementoverviewonaccount"): per organisation and price area, the settled supply energy and
 * bill beside what was invoiced on account for the month (the amounts the settlement carries on its
 * lines, settle.ts), the differences, and what remains due (negative: credited back). The figures
 * are those of the settlement result's lines (`settlement_line`); the on-account amounts' basis
 * (`on_account.based_on_result_id`) is named beside them.
 */
const TEXTS = {
  energyDifference: {
    en: 'Energy difference',
    da: 'Energiforskel',
    nb: 'Energidifferanse',
    sv: 'Energidifferens',
    fi: 'Energian erotus',
    es: 'Diferencia de energía',
  },
} as const satisfies Record<string, Texts>;

export const settlementOverviewOnAccountReport = defineReport({
  name: 'settlementoverviewonaccount',
  family: 'onaccount',
  title: {
    en: 'Settlement overview with on-account reconciliation',
    da: 'Afregningsoversigt med afstemning af aconto',
    nb: 'Avregningsoversikt med a konto-avstemming',
    sv: 'Avräkningsöversikt med avstämning av a conto',
    fi: 'Selvityksen yhteenveto ja ennakoiden täsmäytys',
    es: 'Resumen de liquidación con conciliación a cuenta',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'settlement' },
  columns: [
    { key: 'organisation', kind: 'text' },
    { key: 'organisationId', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    { key: 'onAccountEnergy', kind: 'number', unit: 'kWh' },
    { key: 'energyDifference', kind: 'number', unit: 'kWh', texts: TEXTS.energyDifference },
    { key: 'total', kind: 'number', unit: 'currency' },
    { key: 'onAccountCost', kind: 'number', unit: 'currency' },
    { key: 'due', kind: 'number', unit: 'currency' },
    { key: 'settlementVersion', kind: 'integer' },
    { key: 'basedOnVersion', kind: 'integer', texts: ON_ACCOUNT_TEXTS.basedOnVersion },
  ],
  sortKeys: ['organisation', 'organisationUuid', 'priceArea', 'priceAreaUuid'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    const total = sql`l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost + l.grid_fee_cost
                      + l.energy_fee_cost + l.tax_cost + l.vat_cost`;
    const supply = sql`l.metered_kwh + l.estimated_kwh + l.other_kwh + l.losses_kwh`;
    return sql`
      SELECT o.name AS "organisation", o.attributes ->> 'orgId' AS "organisationId",
             l.organisation_uuid AS "organisationUuid", p.name AS "priceArea", l.price_area_uuid AS "priceAreaUuid",
             sum(${supply}) AS "supplyEnergy", sum(l.on_account_kwh) AS "onAccountEnergy",
             sum(${supply} - l.on_account_kwh) AS "energyDifference",
             sum(${total}) AS "total", sum(l.on_account_cost) AS "onAccountCost",
             sum(${total} - l.on_account_cost) AS "due",
             ${scope.resultId}::bigint AS "settlementVersion",
             (SELECT max(a.based_on_result_id) FROM on_account a
               WHERE a.tenant = l.tenant AND a.organisation_uuid = l.organisation_uuid
                 AND a.price_area_uuid = l.price_area_uuid
                 AND a.month_start >= ${scope.period.start}::timestamptz
                 AND a.month_start < ${scope.period.end}::timestamptz) AS "basedOnVersion"
        FROM settlement_line l
        LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
        LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
       WHERE l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = ${scope.resultId}::bigint
         AND l.day >= ${first} AND l.day < ${after}
         AND ${organisationScope(sql`l.organisation_uuid`, scope)}
       GROUP BY l.tenant, l.organisation_uuid, o.name, o.attributes ->> 'orgId', l.price_area_uuid, p.name`;
  },
});
