import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope, periodDays } from './sql.js';
import { TRAIN_RUN_TEXTS } from './texts.js';

/**
 * Energy per train run, its units together (docs/reports.md "totaltrainrunenergy"): as
 * trainrunenergy, summed over the run's traction units, with how many units drew energy. Who sees
 * which: the area's staff every run; a consumer, vehicle keeper or cp-admin the runs its
 * organisations pay for.
 */
export const totalTrainRunEnergyReport = defineReport({
  name: 'totaltrainrunenergy',
  family: 'trainrun',
  title: {
    en: 'Total energy per train run',
    da: 'Samlet energi pr. togkørsel',
    nb: 'Samlet energi per togframføring',
    sv: 'Total energi per tåg',
    fi: 'Kokonaisenergia junavuoroittain',
    es: 'Energía total por circulación',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer', 'cp-admin', 'vehicle-keeper'],
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: null,
  columns: [
    { key: 'operatingDay', kind: 'day', texts: TRAIN_RUN_TEXTS.operatingDay },
    { key: 'trainNumber', kind: 'text', texts: TRAIN_RUN_TEXTS.trainNumber },
    { key: 'organisation', kind: 'text' },
    { key: 'departure', kind: 'time', texts: TRAIN_RUN_TEXTS.departure },
    { key: 'arrival', kind: 'time', texts: TRAIN_RUN_TEXTS.arrival },
    { key: 'tractionUnits', kind: 'integer', texts: TRAIN_RUN_TEXTS.tractionUnits },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'netEnergy', kind: 'number', unit: 'kWh' },
  ],
  sortKeys: ['operatingDay', 'trainNumber', 'organisation', 'trainRunId'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    return sql`
    SELECT to_char(tr.operating_day, 'YYYY-MM-DD') AS "operatingDay", tr.train_number AS "trainNumber",
           o.name AS "organisation", tr.id AS "trainRunId", tr.departure AS "departure", tr.arrival AS "arrival",
           count(DISTINCT ae.traction_unit_uuid)::int AS "tractionUnits",
           sum(ae.active_consumed) AS "activeConsumed", sum(ae.active_regenerated) AS "activeRegenerated",
           sum(ae.active_consumed - ae.active_regenerated) AS "netEnergy"
      FROM allocated_energy_hourly ae
      JOIN train_run tr ON tr.id = ae.train_run_id AND tr.tenant = ae.tenant
      LEFT JOIN entity_latest o ON o.entity_uuid = tr.ru_uuid
     WHERE ae.tenant = ${scope.tenant}::uuid AND ae.category = 'train-run'
       AND tr.operating_day >= ${first} AND tr.operating_day < ${after}
       AND ${organisationScope(sql`ae.organisation_uuid`, scope)}
     GROUP BY tr.id, tr.operating_day, tr.train_number, o.name, tr.departure, tr.arrival`;
  },
});
