import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope, periodDays, refScope } from './sql.js';
import { TRAIN_RUN_TEXTS } from './texts.js';

/**
 * Energy per train run and traction unit (docs/reports.md "trainrunenergy"): the allocation's hourly
 * sums of category train-run (allocated_energy_hourly) of the runs whose operating day lies in the
 * month (the zone's calendar), summed per run and unit, with the run's train number, railway
 * undertaking, departure and arrival. Who sees which: the area's staff every run; a consumer,
 * vehicle keeper or cp-admin the runs its organisations pay for (the allocation's payer).
 */
export const trainRunEnergyReport = defineReport({
  name: 'trainrunenergy',
  family: 'trainrun',
  title: {
    en: 'Energy per train run and traction unit',
    da: 'Energi pr. togkørsel og trækkraftenhed',
    nb: 'Energi per togframføring og trekkraftenhet',
    sv: 'Energi per tåg och dragfordon',
    fi: 'Energia junavuoroittain ja vetokalustoittain',
    es: 'Energía por circulación y unidad de tracción',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer', 'cp-admin', 'vehicle-keeper'],
  period: 'month',
  refs: [
    { kind: 'organisation', many: true },
    { kind: 'tractionunit', many: true },
  ],
  source: null,
  columns: [
    { key: 'operatingDay', kind: 'day', texts: TRAIN_RUN_TEXTS.operatingDay },
    { key: 'trainNumber', kind: 'text', texts: TRAIN_RUN_TEXTS.trainNumber },
    { key: 'organisation', kind: 'text' },
    { key: 'departure', kind: 'time', texts: TRAIN_RUN_TEXTS.departure },
    { key: 'arrival', kind: 'time', texts: TRAIN_RUN_TEXTS.arrival },
    { key: 'tractionUnit', kind: 'text' },
    { key: 'activeConsumed', kind: 'number', unit: 'kWh' },
    { key: 'activeRegenerated', kind: 'number', unit: 'kWh' },
    { key: 'netEnergy', kind: 'number', unit: 'kWh' },
    { key: 'records', kind: 'integer' },
  ],
  sortKeys: ['operatingDay', 'trainNumber', 'organisation', 'trainRunId', 'tractionUnit', 'tractionUnitUuid'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    return sql`
    SELECT to_char(tr.operating_day, 'YYYY-MM-DD') AS "operatingDay", tr.train_number AS "trainNumber",
           o.name AS "organisation", tr.id AS "trainRunId", tr.departure AS "departure", tr.arrival AS "arrival",
           tu.name AS "tractionUnit", ae.traction_unit_uuid AS "tractionUnitUuid",
           sum(ae.active_consumed) AS "activeConsumed", sum(ae.active_regenerated) AS "activeRegenerated",
           sum(ae.active_consumed - ae.active_regenerated) AS "netEnergy", sum(ae.records)::int AS "records"
      FROM allocated_energy_hourly ae
      JOIN train_run tr ON tr.id = ae.train_run_id AND tr.tenant = ae.tenant
      LEFT JOIN entity_latest o ON o.entity_uuid = tr.ru_uuid
      LEFT JOIN entity_latest tu ON tu.entity_uuid = ae.traction_unit_uuid
     WHERE ae.tenant = ${scope.tenant}::uuid AND ae.category = 'train-run'
       AND tr.operating_day >= ${first} AND tr.operating_day < ${after}
       AND ${organisationScope(sql`ae.organisation_uuid`, scope)}
       AND ${refScope(sql`ae.traction_unit_uuid`, scope.refs.tractionunit)}
     GROUP BY tr.id, tr.operating_day, tr.train_number, o.name, tr.departure, tr.arrival, ae.traction_unit_uuid, tu.name`;
  },
});
