import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope } from './sql.js';

/**
 * Hourly volumes per price area for the balance supplier (docs/reports.md "supplier"): the priced
 * energy of the month's hours (price-and-supply's `priced_energy`) by category, summed per price
 * area and hour. Its month sums per price area equal the settlement lines' energies of the same
 * month.
 */
const energy = (category: string) => sql`coalesce(sum(pe.energy_kwh) FILTER (WHERE pe.category = ${category}), 0)`;

export const supplierReport = defineReport({
  name: 'supplier',
  family: 'supplier',
  title: {
    en: 'Supplier: hourly volumes per price area',
    da: 'Leverandør: timevolumener pr. prisområde',
    nb: 'Leverandør: timevolumer per prisområde',
    sv: 'Leverantör: timvolymer per elområde',
    fi: 'Toimittaja: tuntimäärät hinta-alueittain',
    es: 'Proveedor: volúmenes horarios por zona de precio',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'price-and-supply' },
  columns: [
    { key: 'priceArea', kind: 'text' },
    { key: 'hour', kind: 'time' },
    { key: 'meteredEnergy', kind: 'number', unit: 'kWh' },
    { key: 'estimatedEnergy', kind: 'number', unit: 'kWh' },
    { key: 'otherEnergy', kind: 'number', unit: 'kWh' },
    { key: 'lossesEnergy', kind: 'number', unit: 'kWh' },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
  ],
  sortKeys: ['priceArea', 'priceAreaUuid', 'hour'],
  query: (scope) => sql`
    SELECT p.name AS "priceArea", pe.price_area_uuid AS "priceAreaUuid", pe.hour_start AS "hour",
           ${energy('metered')} AS "meteredEnergy", ${energy('estimated')} AS "estimatedEnergy",
           ${energy('other')} AS "otherEnergy", ${energy('losses')} AS "lossesEnergy",
           sum(pe.energy_kwh) AS "supplyEnergy"
      FROM priced_energy pe
      LEFT JOIN entity_latest p ON p.entity_uuid = pe.price_area_uuid
     WHERE pe.tenant = ${scope.tenant}::uuid
       AND pe.hour_start >= ${scope.period.start}::timestamptz AND pe.hour_start < ${scope.period.end}::timestamptz
       AND ${organisationScope(sql`pe.organisation_uuid`, scope)}
     GROUP BY pe.price_area_uuid, p.name, pe.hour_start`,
});
