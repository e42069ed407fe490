import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { GRID_BALANCE_ORDER } from './gridarea-settlement.js';
import { eusaScope, refScope } from './sql.js';
import type { Texts } from './texts.js';

/**
 * Supply and its cost per grid and price area (docs/reports.md "energysupplyandcost"): for the
 * month, per grid area, the energy its supply metering points delivered and what it cost at the
 * hours' spot prices (price-and-supply's `supply_balance`: supply x the price area's spot price x
 * the exchange rate, in the area's currency), its average price, and what the organisations in the
 * grid area are charged for energy (`priced_energy`: metered, estimated, other and losses at their
 * prices). With the losses billed whole (lossSharePercent 100) the charged cost equals the supply's
 * cost at spot in a price area; the difference column shows what is left where it is not.
 */
const TEXTS = {
  supplyCost: {
    en: 'Supply cost at spot price',
    da: 'Leveranceomkostning til spotpris',
    nb: 'Leveransekostnad til spotpris',
    sv: 'Leveranskostnad till spotpris',
    fi: 'Toimituksen kustannus spot-hinnalla',
    es: 'Coste del suministro a precio spot',
  },
  averagePrice: {
    en: 'Average price',
    da: 'Gennemsnitspris',
    nb: 'Gjennomsnittspris',
    sv: 'Genomsnittspris',
    fi: 'Keskihinta',
    es: 'Precio medio',
  },
  chargedCost: {
    en: 'Energy cost charged',
    da: 'Fakturerede energiomkostninger',
    nb: 'Fakturert energikostnad',
    sv: 'Debiterad energikostnad',
    fi: 'Veloitettu energiakustannus',
    es: 'Coste de energía facturado',
  },
  costDifference: {
    en: 'Difference',
    da: 'Forskel',
    nb: 'Differanse',
    sv: 'Differens',
    fi: 'Erotus',
    es: 'Diferencia',
  },
  allocatedEnergy: {
    en: 'Allocated energy',
    da: 'Fordelt energi',
    nb: 'Fordelt energi',
    sv: 'Fördelad energi',
    fi: 'Kohdistettu energia',
    es: 'Energía asignada',
  },
} as const satisfies Record<string, Texts>;

export const energySupplyAndCostReport = defineReport({
  name: 'energysupplyandcost',
  family: 'cost',
  title: {
    en: 'Energy supply and cost',
    da: 'Energileverance og omkostninger',
    nb: 'Energileveranse og kostnad',
    sv: 'Energileverans och kostnad',
    fi: 'Energian toimitus ja kustannus',
    es: 'Suministro y coste de energía',
  },
  ...GRID_BALANCE_ORDER,
  columns: [
    { key: 'priceArea', kind: 'text' },
    { key: 'gridArea', kind: 'text' },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    { key: 'allocatedEnergy', kind: 'number', unit: 'kWh', texts: TEXTS.allocatedEnergy },
    { key: 'lossesEnergy', kind: 'number', unit: 'kWh' },
    { key: 'supplyCost', kind: 'number', unit: 'currency', texts: TEXTS.supplyCost },
    { key: 'averagePrice', kind: 'number', unit: 'currency/MWh', texts: TEXTS.averagePrice },
    { key: 'chargedCost', kind: 'number', unit: 'currency', texts: TEXTS.chargedCost },
    { key: 'costDifference', kind: 'number', unit: 'currency', texts: TEXTS.costDifference },
  ],
  sortKeys: ['priceArea', 'gridArea', 'gridAreaUuid'],
  query: (scope) => {
    const inMonth = (hour: ReturnType<typeof sql>) =>
      sql`${hour} >= ${scope.period.start}::timestamptz AND ${hour} < ${scope.period.end}::timestamptz`;
    return sql`
      WITH supply AS (
        SELECT b.grid_area_uuid, min(b.price_area_uuid::text)::uuid AS price_area_uuid,
               sum(b.supply_kwh) AS supply_kwh, sum(b.allocated_kwh) AS allocated_kwh, sum(b.losses_kwh) AS losses_kwh,
               sum(b.supply_kwh / 1000 * coalesce(b.spot_price_eur_mwh, 0) * b.exchange_rate) AS cost
          FROM supply_balance b
         WHERE b.tenant = ${scope.tenant}::uuid AND ${inMonth(sql`b.hour_start`)}
           AND ${refScope(sql`b.grid_area_uuid`, scope.refs.gridarea)} AND ${eusaScope(sql`b.grid_area_uuid`, scope)}
         GROUP BY b.grid_area_uuid
      ), charged AS (
        SELECT pe.grid_area_uuid, sum(coalesce(pe.cost, 0)) AS cost
          FROM priced_energy pe
         WHERE pe.tenant = ${scope.tenant}::uuid AND ${inMonth(sql`pe.hour_start`)}
           AND pe.grid_area_uuid IN (SELECT grid_area_uuid FROM supply)
         GROUP BY pe.grid_area_uuid
      )
      SELECT p.name AS "priceArea", g.name AS "gridArea", s.grid_area_uuid AS "gridAreaUuid",
             s.supply_kwh AS "supplyEnergy", s.allocated_kwh AS "allocatedEnergy", s.losses_kwh AS "lossesEnergy",
             s.cost AS "supplyCost", s.cost / nullif(s.supply_kwh, 0) * 1000 AS "averagePrice",
             coalesce(c.cost, 0) AS "chargedCost", coalesce(c.cost, 0) - s.cost AS "costDifference"
        FROM supply s
        LEFT JOIN charged c ON c.grid_area_uuid = s.grid_area_uuid
        LEFT JOIN entity_latest g ON g.entity_uuid = s.grid_area_uuid
        LEFT JOIN entity_latest p ON p.entity_uuid = s.price_area_uuid`;
  },
});
