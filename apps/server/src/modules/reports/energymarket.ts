import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { GRID_BALANCE_ORDER } from './gridarea-settlement.js';
import { eusaScope, refScope } from './sql.js';

/**
 * Hourly supply and consumption per price area, for purchase planning (docs/reports.md
 * "energymarket"): price-and-supply's supply balance (supply_balance, one row per grid area and hour)
 * summed per price area and hour: the supply metered into the grid areas, the consumption allocated
 * to organisations (metered, estimated and other), the losses, and the hour's spot price. The whole
 * area's energy: the area's staff only, reading price-and-supply's results as a grid-area report.
 */
export const energyMarketReport = defineReport({
  name: 'energymarket',
  family: 'gridarea',
  title: {
    en: 'Energy market: hourly supply and consumption per price area',
    da: 'Energimarked: leverance og forbrug pr. time og prisområde',
    nb: 'Energimarked: levering og forbruk per time og prisområde',
    sv: 'Energimarknad: leverans och förbrukning per timme och elområde',
    fi: 'Energiamarkkinat: toimitus ja kulutus tunneittain hinta-alueittain',
    es: 'Mercado de energía: suministro y consumo horario por zona de precio',
  },
  ...GRID_BALANCE_ORDER,
  columns: [
    { key: 'priceArea', kind: 'text' },
    { key: 'hour', kind: 'time' },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    {
      key: 'consumptionEnergy',
      kind: 'number',
      unit: 'kWh',
      texts: {
        en: 'Consumption',
        da: 'Forbrug',
        nb: 'Forbruk',
        sv: 'Förbrukning',
        fi: 'Kulutus',
        es: 'Consumo',
      },
    },
    { key: 'lossesEnergy', kind: 'number', unit: 'kWh' },
    { key: 'spotPrice', kind: 'number', unit: 'EUR/MWh' },
  ],
  sortKeys: ['priceArea', 'priceAreaUuid', 'hour'],
  query: (scope) => sql`
    SELECT p.name AS "priceArea", b.price_area_uuid AS "priceAreaUuid", b.hour_start AS "hour",
           sum(b.supply_kwh) AS "supplyEnergy", sum(b.allocated_kwh) AS "consumptionEnergy",
           sum(b.losses_kwh) AS "lossesEnergy", max(b.spot_price_eur_mwh) AS "spotPrice"
      FROM supply_balance b
      LEFT JOIN entity_latest p ON p.entity_uuid = b.price_area_uuid
     WHERE b.tenant = ${scope.tenant}::uuid
       AND b.hour_start >= ${scope.period.start}::timestamptz AND b.hour_start < ${scope.period.end}::timestamptz
       AND ${refScope(sql`b.grid_area_uuid`, scope.refs.gridarea)} AND ${eusaScope(sql`b.grid_area_uuid`, scope)}
     GROUP BY b.price_area_uuid, p.name, b.hour_start`,
});
