import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { defineReport } from './define-report.js';
import { organisationFilter } from '../organisation/visibility.js';
import { refScope } from './sql.js';

/** The month an instant's 5 minutes lie in, on the order's zone's calendar ("2026-10"). */
const recordMonth = (zone: string) =>
  sql`to_char((r.period_end - interval '1 microsecond') AT TIME ZONE ${zone}, 'YYYY-MM')`;

/**
 * Energy per traction unit over a range of months, with its running total (docs/reports.md
 * "accumulatedenergy"): the checked, valid CEBD records (as consumption) of the units' consumption
 * points, summed per unit and month of the order's zone from the ordered month to toYear/toMonth,
 * and the net energy accumulated month by month. Who sees which: the area's staff every unit; a
 * vehicle keeper, cp-admin or consumer the units its organisations own.
 */
export const accumulatedEnergyReport = defineReport({
  name: 'accumulatedenergy',
  family: 'energy',
  title: {
    en: 'Accumulated energy per traction unit',
    da: 'Akkumuleret energi pr. trækkraftenhed',
    nb: 'Akkumulert energi per trekkraftenhet',
    sv: 'Ackumulerad energi per dragfordon',
    fi: 'Kertynyt energia vetokalustoittain',
    es: 'Energía acumulada por unidad de tracción',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer', 'cp-admin', 'vehicle-keeper'],
  period: 'months',
  refs: [{ kind: 'tractionunit', many: true }],
  parameters: z
    .object({
      toYear: z.number().int().min(2000).max(2100).optional(),
      toMonth: z.number().int().min(1).max(12).optional(),
    })
    .strict(),
  source: null,
  columns: [
    { key: 'tractionUnit', kind: 'text' },
    {
      key: 'month',
      kind: 'text',
      texts: { en: 'Month', da: 'Måned', nb: 'Måned', sv: 'Månad', fi: 'Kuukausi', es: 'Mes' },
    },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'netEnergy', kind: 'number', unit: 'kWh' },
    {
      key: 'accumulatedEnergy',
      kind: 'number',
      unit: 'kWh',
      texts: {
        en: 'Accumulated net energy',
        da: 'Akkumuleret nettoenergi',
        nb: 'Akkumulert nettoenergi',
        sv: 'Ackumulerad nettoenergi',
        fi: 'Kertynyt nettoenergia',
        es: 'Energía neta acumulada',
      },
    },
  ],
  sortKeys: ['tractionUnit', 'tractionUnitUuid', 'month'],
  query: (scope) => sql`
    SELECT m.*, sum(m."netEnergy") OVER (PARTITION BY m."tractionUnitUuid" ORDER BY m."month") AS "accumulatedEnergy"
      FROM (SELECT tu.name AS "tractionUnit", tu.entity_uuid AS "tractionUnitUuid", ${recordMonth(scope.zone)} AS "month",
                   sum(r.active_consumed) AS "activeConsumed", sum(r.active_regenerated) AS "activeRegenerated",
                   sum(r.active_consumed - r.active_regenerated) AS "netEnergy"
              FROM cebd_record r
              JOIN entity_latest cp ON cp.entity_uuid = r.consumption_point_uuid
              JOIN entity_latest tu ON tu.entity_uuid = coalesce(r.traction_unit_uuid, cp.unit_uuid)
             WHERE r.tenant = ${scope.tenant}::uuid
               AND r.period_end > ${scope.period.start}::timestamptz AND r.period_end <= ${scope.period.end}::timestamptz
               AND r.checked_at IS NOT NULL AND r.codes = '{}' AND r.quality <> 46
               AND ${refScope(sql`tu.entity_uuid`, scope.refs.tractionunit)}
               AND ${organisationFilter(sql`tu.owner_uuid`, scope.organisations)}
             GROUP BY tu.entity_uuid, tu.name, 3) AS m`,
});
