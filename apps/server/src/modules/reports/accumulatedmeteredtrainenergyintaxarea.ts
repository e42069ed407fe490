import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { segmentValidAt } from '../domain/sql.js';
import { defineReport } from './define-report.js';
import { organisationScope } from './sql.js';
import type { Texts } from './texts.js';

/**
 * Metered train energy per tax area, for tax returns (docs/reports.md
 * "accumulatedmeteredtrainenergyintaxarea"): per tax area, railway undertaking and month of the
 * range (the ordered month to toYear/toMonth), the metered energy of train runs (the allocation's
 * hourly sums of category train-run, `allocated_energy_hourly`) and its running total from the
 * range's first month. A record's tax area is that of the grid area it was placed in
 * (cebd-preprocessing, by its position): the grid area's `taxAreaRef` in its version valid at the
 * hour, as settlement reads it for the tax (settle.ts). Energy in no grid area, or a grid area
 * without a tax area, has an empty tax area. No result (the allocation as it stands).
 */
const TEXTS = {
  taxArea: {
    en: 'Tax area',
    da: 'Afgiftsområde',
    nb: 'Avgiftsområde',
    sv: 'Skatteområde',
    fi: 'Veroalue',
    es: 'Zona fiscal',
  },
  month: { en: 'Month', da: 'Måned', nb: 'Måned', sv: 'Månad', fi: 'Kuukausi', es: 'Mes' },
  accumulatedEnergy: {
    en: 'Accumulated net energy',
    da: 'Akkumuleret nettoenergi',
    nb: 'Akkumulert nettoenergi',
    sv: 'Ackumulerad nettoenergi',
    fi: 'Kertynyt nettoenergia',
    es: 'Energía neta acumulada',
  },
} as const satisfies Record<string, Texts>;

export const accumulatedMeteredTrainEnergyInTaxAreaReport = defineReport({
  name: 'accumulatedmeteredtrainenergyintaxarea',
  family: 'areaenergy',
  title: {
    en: 'Accumulated metered train energy per tax area',
    da: 'Akkumuleret målt togenergi pr. afgiftsområde',
    nb: 'Akkumulert målt togenergi per avgiftsområde',
    sv: 'Ackumulerad uppmätt tågenergi per skatteområde',
    fi: 'Kertynyt mitattu junaenergia veroalueittain',
    es: 'Energía de tren medida acumulada por zona fiscal',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'months',
  refs: [{ kind: 'organisation', many: true }],
  parameters: z
    .object({
      toYear: z.number().int().min(2000).max(2100).optional(),
      toMonth: z.number().int().min(1).max(12).optional(),
    })
    .strict(),
  source: null,
  columns: [
    { key: 'taxArea', kind: 'text', texts: TEXTS.taxArea },
    { key: 'organisation', kind: 'text' },
    { key: 'month', kind: 'text', texts: TEXTS.month },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'netEnergy', kind: 'number', unit: 'kWh' },
    { key: 'accumulatedEnergy', kind: 'number', unit: 'kWh', texts: TEXTS.accumulatedEnergy },
  ],
  sortKeys: ['taxArea', 'taxAreaUuid', 'organisation', 'organisationUuid', 'month'],
  query: (scope) => sql`
    SELECT m.*, sum(m."netEnergy") OVER (PARTITION BY m."taxAreaUuid", m."organisationUuid" ORDER BY m."month")
                  AS "accumulatedEnergy"
      FROM (SELECT ta.name AS "taxArea", ta.entity_uuid AS "taxAreaUuid",
                   o.name AS "organisation", ae.organisation_uuid AS "organisationUuid",
                   to_char(ae.hour_start AT TIME ZONE ${scope.zone}, 'YYYY-MM') AS "month",
                   sum(ae.active_consumed) AS "activeConsumed", sum(ae.active_regenerated) AS "activeRegenerated",
                   sum(ae.active_consumed - ae.active_regenerated) AS "netEnergy"
              FROM allocated_energy_hourly ae
              LEFT JOIN entity_segment g ON g.entity_uuid = ae.grid_area_uuid AND ${segmentValidAt('g', sql`ae.hour_start`)}
              LEFT JOIN entity_latest ta ON ta.entity_uuid::text = g.attributes ->> 'taxAreaRef'
              LEFT JOIN entity_latest o ON o.entity_uuid = ae.organisation_uuid
             WHERE ae.tenant = ${scope.tenant}::uuid AND ae.category = 'train-run'
               AND ae.hour_start >= ${scope.period.start}::timestamptz AND ae.hour_start < ${scope.period.end}::timestamptz
               AND ${organisationScope(sql`ae.organisation_uuid`, scope)}
             GROUP BY ta.entity_uuid, ta.name, ae.organisation_uuid, o.name, 5) AS m`,
});
