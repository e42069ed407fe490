import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { monthVersions, MORE_TEXTS, RANGE_PARAMETERS } from './settlement-versions.js';
import { organisationScope } from './sql.js';

/** The cost of a line's energy (all four categories) and its charges before VAT, settlement_line alias l. */
const ENERGY_COST = sql`(l.metered_cost + l.estimated_cost + l.other_cost + l.losses_cost)`;
const EXCL_VAT = sql`(${ENERGY_COST} + l.grid_fee_cost + l.energy_fee_cost + l.tax_cost)`;
const SUPPLY = sql`(l.metered_kwh + l.estimated_kwh + l.other_kwh + l.losses_kwh)`;

/**
 * settlementoverview in the Portuguese area's layout (docs/reports.md "portugal-settlementoverview"):
 * month by month, per customer (its NIF, the organisation id) and price area, the invoice's terms
 * as a Portuguese invoice shows them: supply energy, its average price per MWh, the energy term,
 * network access (the grid fee), the other energy charges, the excise tax, the base for VAT, the
 * VAT rate and amount, and the total; the version each month was read from. Made in the Portugal
 * area only.
 */
export const portugalSettlementOverviewReport = defineReport({
  name: 'portugal-settlementoverview',
  family: 'settlement',
  title: {
    en: 'Settlement overview by month (Portugal)',
    da: 'Afregningsoverblik pr. måned (Portugal)',
    nb: 'Avregningsoversikt per måned (Portugal)',
    sv: 'Avräkningsöversikt per månad (Portugal)',
    fi: 'Selvityksen kuukausikatsaus (Portugali)',
    es: 'Resumen de liquidación por mes (Portugal)',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'months',
  areas: ['portugal'],
  refs: [{ kind: 'organisation', many: true }],
  parameters: RANGE_PARAMETERS,
  source: { procedure: 'settlement', perMonth: true },
  columns: [
    { key: 'month', kind: 'text', texts: MORE_TEXTS.month },
    {
      key: 'taxNumber',
      kind: 'text',
      texts: {
        en: 'Tax number (NIF)',
        da: 'Skattenummer (NIF)',
        nb: 'Skattenummer (NIF)',
        sv: 'Skattenummer (NIF)',
        fi: 'Verotunniste (NIF)',
        es: 'Número fiscal (NIF)',
      },
    },
    { key: 'organisation', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    {
      key: 'averageEnergyPrice',
      kind: 'number',
      unit: 'currency/MWh',
      texts: {
        en: 'Average energy price',
        da: 'Gennemsnitlig energipris',
        nb: 'Gjennomsnittlig energipris',
        sv: 'Genomsnittligt energipris',
        fi: 'Energian keskihinta',
        es: 'Precio medio de la energía',
      },
    },
    { key: 'energyCost', kind: 'number', unit: 'currency' },
    {
      key: 'networkAccess',
      kind: 'number',
      unit: 'currency',
      texts: {
        en: 'Network access',
        da: 'Netadgang',
        nb: 'Nettilgang',
        sv: 'Nätanslutning',
        fi: 'Verkkopalvelu',
        es: 'Acceso a las redes',
      },
    },
    { key: 'energyFee', kind: 'number', unit: 'currency' },
    {
      key: 'exciseTax',
      kind: 'number',
      unit: 'currency',
      texts: {
        en: 'Excise tax (IEC)',
        da: 'Punktafgift (IEC)',
        nb: 'Særavgift (IEC)',
        sv: 'Punktskatt (IEC)',
        fi: 'Valmistevero (IEC)',
        es: 'Impuesto especial (IEC)',
      },
    },
    {
      key: 'vatBase',
      kind: 'number',
      unit: 'currency',
      texts: {
        en: 'Taxable amount',
        da: 'Momsgrundlag',
        nb: 'Mva.-grunnlag',
        sv: 'Momsunderlag',
        fi: 'Veron peruste',
        es: 'Base imponible',
      },
    },
    {
      key: 'vatRate',
      kind: 'number',
      texts: {
        en: 'VAT rate (%)',
        da: 'Momssats (%)',
        nb: 'Mva.-sats (%)',
        sv: 'Momssats (%)',
        fi: 'ALV-kanta (%)',
        es: 'Tipo de IVA (%)',
      },
    },
    { key: 'vat', kind: 'number', unit: 'currency' },
    { key: 'total', kind: 'number', unit: 'currency' },
    { key: 'settlementVersion', kind: 'integer' },
  ],
  sortKeys: ['month', 'organisation', 'organisationUuid', 'priceArea', 'priceAreaUuid'],
  query: (scope) => sql`
    WITH v AS (${monthVersions(scope)})
    SELECT v.month AS "month", o.attributes ->> 'orgId' AS "taxNumber", o.name AS "organisation",
           l.organisation_uuid AS "organisationUuid", p.name AS "priceArea", l.price_area_uuid AS "priceAreaUuid",
           sum(${SUPPLY}) AS "supplyEnergy",
           CASE WHEN sum(${SUPPLY}) = 0 THEN NULL ELSE sum(${ENERGY_COST}) * 1000 / sum(${SUPPLY}) END
             AS "averageEnergyPrice",
           sum(${ENERGY_COST}) AS "energyCost", sum(l.grid_fee_cost) AS "networkAccess",
           sum(l.energy_fee_cost) AS "energyFee", sum(l.tax_cost) AS "exciseTax", sum(${EXCL_VAT}) AS "vatBase",
           CASE WHEN sum(${EXCL_VAT}) = 0 THEN NULL ELSE sum(l.vat_cost) * 100 / sum(${EXCL_VAT}) END AS "vatRate",
           sum(l.vat_cost) AS "vat", sum(${EXCL_VAT} + l.vat_cost) AS "total",
           v.result_id AS "settlementVersion"
      FROM v
      JOIN settlement_line l
        ON l.tenant = ${scope.tenant}::uuid AND l.procedure_result_id = v.result_id
       AND l.day >= v.month_first AND l.day < v.month_after
      LEFT JOIN entity_latest o ON o.entity_uuid = l.organisation_uuid
      LEFT JOIN entity_latest p ON p.entity_uuid = l.price_area_uuid
     WHERE ${organisationScope(sql`l.organisation_uuid`, scope)}
     GROUP BY v.month, v.result_id, l.organisation_uuid, o.name, o.attributes ->> 'orgId', l.price_area_uuid, p.name`,
});
