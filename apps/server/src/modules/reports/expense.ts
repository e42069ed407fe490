import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope, periodDays } from './sql.js';
import { COLUMN_TEXTS, type Texts } from './texts.js';

/**
 * Costs per price element and organisation (docs/reports.md "expense"): the month's settlement
 * lines of each organisation and price area split into their price elements, one row each: the
 * energy (metered, estimated, other and losses at their prices), the grid fee, the energy fee, the
 * tax and the VAT, each with what it is charged on (the line's supply energy), its price per MWh
 * (the amount over that energy) and its amount. The element's name is that of the price element of
 * the contract the settlement used (`settlement_line.contract_uuid`: its grid fee types, energy fee
 * types, tax category and VAT category). The rows of an organisation sum to its invoice's total
 * with VAT (the settlement report's total).
 */
const TEXTS = {
  element: {
    en: 'Price element',
    da: 'Priselement',
    nb: 'Priselement',
    sv: 'Priselement',
    fi: 'Hintaelementti',
    es: 'Elemento de precio',
  },
  name: { en: 'Name', da: 'Navn', nb: 'Navn', sv: 'Namn', fi: 'Nimi', es: 'Nombre' },
  unitPrice: {
    en: 'Price',
    da: 'Pris',
    nb: 'Pris',
    sv: 'Pris',
    fi: 'Hinta',
    es: 'Precio',
  },
  amount: { en: 'Amount', da: 'Beløb', nb: 'Beløp', sv: 'Belopp', fi: 'Summa', es: 'Importe' },
} as const satisfies Record<string, Texts>;

const ELEMENTS: readonly { key: string; word: Texts }[] = [
  { key: 'energy', word: COLUMN_TEXTS.energyCost },
  { key: 'gridFee', word: COLUMN_TEXTS.gridFee },
  { key: 'energyFee', word: COLUMN_TEXTS.energyFee },
  { key: 'tax', word: COLUMN_TEXTS.tax },
  { key: 'vat', word: COLUMN_TEXTS.vat },
];

/** The names of the entities a contract attribute (one ref or a list of refs) names, comma-separated. */
const refNames = (attribute: string): SQL => sql`(
  SELECT string_agg(n.name, ', ' ORDER BY n.name)
    FROM jsonb_array_elements_text(CASE jsonb_typeof(c.attributes -> ${attribute})
                                     WHEN 'array' THEN c.attributes -> ${attribute}
                                     WHEN 'string' THEN jsonb_build_array(c.attributes -> ${attribute})
                                     ELSE '[]'::jsonb END) AS ref(uuid)
    JOIN entity_latest n ON n.entity_uuid::text = ref.uuid)`;

export const expenseReport = defineReport({
  name: 'expense',
  family: 'cost',
  title: {
    en: 'Expenses per price element',
    da: 'Omkostninger pr. priselement',
    nb: 'Kostnader per priselement',
    sv: 'Kostnader per priselement',
    fi: 'Kustannukset hintaelementeittäin',
    es: 'Gastos por elemento de precio',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'settlement' },
  columns: [
    { key: 'organisation', kind: 'text' },
    { key: 'organisationId', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    { key: 'element', kind: 'text', texts: TEXTS.element },
    { key: 'name', kind: 'text', texts: TEXTS.name },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    { key: 'unitPrice', kind: 'number', unit: 'currency/MWh', texts: TEXTS.unitPrice },
    { key: 'amount', kind: 'number', unit: 'currency', texts: TEXTS.amount },
    { key: 'settlementVersion', kind: 'integer' },
  ],
  sortKeys: ['organisation', 'organisationUuid', 'priceArea', 'priceAreaUuid', 'elementOrder'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    const words = ELEMENTS.map((e) => e.word[scope.language]);
    return sql`
      WITH lines AS (
        SELECT l.organisation_uuid, l.price_area_uuid, min(l.contract_uuid::text) AS contract,
               sum(l.metered_kwh + l.estimated_kwh + l.other_kwh + l.losses_kwh) AS kwh,
               sum(l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost) AS energy,
               sum(l.grid_fee_cost) AS grid_fee, sum(l.energy_fee_cost) AS energy_fee, sum(l.tax_cost) AS tax,
               sum(l.vat_cost) AS vat
          FROM settlement_line l
         WHERE l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = ${scope.resultId}::bigint
           AND l.day >= ${first} AND l.day < ${after}
           AND ${organisationScope(sql`l.organisation_uuid`, scope)}
         GROUP BY l.organisation_uuid, l.price_area_uuid
      )
      SELECT o.name AS "organisation", o.attributes ->> 'orgId' AS "organisationId",
             x.organisation_uuid AS "organisationUuid", p.name AS "priceArea", x.price_area_uuid AS "priceAreaUuid",
             e.n AS "elementOrder", (${sql.param(words)}::text[])[e.n] AS "element",
             CASE e.n WHEN 2 THEN ${refNames('gridFeeTypeRefs')} WHEN 3 THEN ${refNames('energyFeeTypeRefs')}
                      WHEN 4 THEN ${refNames('taxCategoryRef')} WHEN 5 THEN ${refNames('vatCategoryRef')} END AS "name",
             x.kwh AS "supplyEnergy",
             CASE WHEN e.n < 5 THEN e.amount / nullif(x.kwh, 0) * 1000 END AS "unitPrice",
             e.amount AS "amount", ${scope.resultId}::bigint AS "settlementVersion"
        FROM lines x
        CROSS JOIN LATERAL (VALUES (1, x.energy), (2, x.grid_fee), (3, x.energy_fee), (4, x.tax), (5, x.vat))
          AS e(n, amount)
        LEFT JOIN entity_latest c ON c.entity_uuid::text = x.contract
        LEFT JOIN entity_latest o ON o.entity_uuid = x.organisation_uuid
        LEFT JOIN entity_latest p ON p.entity_uuid = x.price_area_uuid`;
  },
});
