import { AREA_WIDE_ROLES, TPA_SETTLEMENT_AREAS } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope } from './sql.js';

const energy = (category: string) => sql`coalesce(sum(pe.energy_kwh) FILTER (WHERE pe.category = ${category}), 0)`;

/**
 * Hourly volumes for the transmission-system party (docs/reports.md "tpa-supplier"): as supplier,
 * but per organisation as well as price area and hour, because the TPA receives every
 * organisation's values (as its metered-energy-aggregation file does). price-and-supply's
 * `priced_energy`; its month sums per organisation and price area equal the settlement lines'
 * energies. Made only in an area that settles for a TPA (contracts TPA_SETTLEMENT_AREAS).
 */
export const tpaSupplierReport = defineReport({
  name: 'tpa-supplier',
  family: 'supplier',
  title: {
    en: 'TPA: hourly volumes per price area and organisation',
    da: 'TPA: timevolumener pr. prisområde og organisation',
    nb: 'TPA: timevolumer per prisområde og organisasjon',
    sv: 'TPA: timvolymer per elområde och organisation',
    fi: 'TPA: tuntimäärät hinta-alueittain ja organisaatioittain',
    es: 'TPA: volúmenes horarios por zona de precio y organización',
  },
  roles: AREA_WIDE_ROLES,
  period: 'month',
  areas: TPA_SETTLEMENT_AREAS,
  refs: [{ kind: 'organisation', many: true }],
  source: { procedure: 'price-and-supply' },
  columns: [
    { key: 'priceArea', kind: 'text' },
    { key: 'organisation', kind: 'text' },
    { key: 'organisationId', kind: 'text' },
    { key: 'hour', kind: 'time' },
    { key: 'meteredEnergy', kind: 'number', unit: 'kWh' },
    { key: 'estimatedEnergy', kind: 'number', unit: 'kWh' },
    { key: 'otherEnergy', kind: 'number', unit: 'kWh' },
    { key: 'lossesEnergy', kind: 'number', unit: 'kWh' },
    { key: 'supplyEnergy', kind: 'number', unit: 'kWh' },
  ],
  sortKeys: ['priceArea', 'priceAreaUuid', 'organisation', 'organisationUuid', 'hour'],
  query: (scope) => sql`
    SELECT p.name AS "priceArea", pe.price_area_uuid AS "priceAreaUuid", o.name AS "organisation",
           o.attributes ->> 'orgId' AS "organisationId", pe.organisation_uuid AS "organisationUuid",
           pe.hour_start AS "hour",
           ${energy('metered')} AS "meteredEnergy", ${energy('estimated')} AS "estimatedEnergy",
           ${energy('other')} AS "otherEnergy", ${energy('losses')} AS "lossesEnergy",
           sum(pe.energy_kwh) AS "supplyEnergy"
      FROM priced_energy pe
      LEFT JOIN entity_latest p ON p.entity_uuid = pe.price_area_uuid
      LEFT JOIN entity_latest o ON o.entity_uuid = pe.organisation_uuid
     WHERE pe.tenant = ${scope.tenant}::uuid
       AND pe.hour_start >= ${scope.period.start}::timestamptz AND pe.hour_start < ${scope.period.end}::timestamptz
       AND ${organisationScope(sql`pe.organisation_uuid`, scope)}
     GROUP BY pe.price_area_uuid, p.name, pe.organisation_uuid, o.name, o.attributes ->> 'orgId', pe.hour_start`,
});
