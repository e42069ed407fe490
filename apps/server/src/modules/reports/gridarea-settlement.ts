import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport, type ReportDeclaration } from './define-report.js';
import { eusaScope, refScope } from './sql.js';

/**
 * Who may order the reports of price-and-supply's hourly balance (gridarea-settlement, energymarket)
 * and for what: the area's staff, a month of the ordered grid or energy use settlement areas.
 */
export const GRID_BALANCE_ORDER = {
  roles: AREA_WIDE_ROLES,
  period: 'month',
  refs: [
    { kind: 'gridarea', many: true },
    { kind: 'energyusesettlementarea', many: true },
  ],
  source: { procedure: 'price-and-supply', gridArea: true },
} as const satisfies Pick<ReportDeclaration<unknown>, 'roles' | 'period' | 'refs' | 'source'>;

/**
 * The balance per grid area and hour (docs/reports.md "gridarea-settlement"): supply of the grid
 * area's supply metering points, and what it went to (price-and-supply's `supply_balance` and the
 * categories of `priced_energy`): metered, estimated, other, losses, with the hour's spot price.
 * supply = metered + estimated + other + losses when the balance closes. A grid-area report
 * (calls.md §4): the supply of a grid area is every organisation's, so the area's staff order it.
 */
const energy = (category: string) => sql`coalesce(sum(pe.energy_kwh) FILTER (WHERE pe.category = ${category}), 0)`;

export const gridAreaSettlementReport = defineReport({
  name: 'gridarea-settlement',
  family: 'gridarea',
  title: {
    en: 'Grid area settlement',
    da: 'Afregning pr. netområde',
    nb: 'Avregning per nettområde',
    sv: 'Avräkning per nätområde',
    fi: 'Verkkoalueen selvitys',
    es: 'Liquidación por zona de red',
  },
  ...GRID_BALANCE_ORDER,
  columns: [
    { key: 'gridArea', kind: 'text' },
    { key: 'priceArea', kind: 'text' },
    { key: 'hour', kind: 'time' },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
    { key: 'meteredEnergy', kind: 'number', unit: 'kWh' },
    { key: 'estimatedEnergy', kind: 'number', unit: 'kWh' },
    { key: 'otherEnergy', kind: 'number', unit: 'kWh' },
    { key: 'lossesEnergy', kind: 'number', unit: 'kWh' },
    { key: 'spotPrice', kind: 'number', unit: 'EUR/MWh' },
  ],
  sortKeys: ['gridArea', 'gridAreaUuid', 'hour'],
  query: (scope) => sql`
    SELECT g.name AS "gridArea", b.grid_area_uuid AS "gridAreaUuid", p.name AS "priceArea", b.hour_start AS "hour",
           b.supply_kwh AS "supplyEnergy", ${energy('metered')} AS "meteredEnergy",
           ${energy('estimated')} AS "estimatedEnergy", ${energy('other')} AS "otherEnergy",
           b.losses_kwh AS "lossesEnergy", b.spot_price_eur_mwh AS "spotPrice"
      FROM supply_balance b
      LEFT JOIN priced_energy pe
        ON pe.tenant = b.tenant AND pe.hour_start = b.hour_start AND pe.grid_area_uuid = b.grid_area_uuid
      LEFT JOIN entity_latest g ON g.entity_uuid = b.grid_area_uuid
      LEFT JOIN entity_latest p ON p.entity_uuid = b.price_area_uuid
     WHERE b.tenant = ${scope.tenant}::uuid
       AND b.hour_start >= ${scope.period.start}::timestamptz AND b.hour_start < ${scope.period.end}::timestamptz
       AND ${refScope(sql`b.grid_area_uuid`, scope.refs.gridarea)} AND ${eusaScope(sql`b.grid_area_uuid`, scope)}
     GROUP BY b.grid_area_uuid, g.name, p.name, b.hour_start, b.supply_kwh, b.losses_kwh, b.spot_price_eur_mwh`,
});
