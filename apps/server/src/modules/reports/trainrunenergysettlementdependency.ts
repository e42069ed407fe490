import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope, periodDays, refScope } from './sql.js';
import { trainRunEnergyReport } from './trainrunenergy.js';

/**
 * trainrunenergy as an approved settlement version holds it (docs/reports.md
 * "trainrunenergysettlementdependency"): the month's approved settlement version (never a success
 * or corrected one, whoever orders) is resolved by the kit and named in every row; the runs'
 * allocated energy counts only where that version has a line for the payer, price area and day the
 * energy lies in, so a month or payer the approved version does not settle shows nothing. Without an
 * approved version the order fails and says so. settlement_line keeps no per-run figures: the runs'
 * energy is the allocation as it stands (a re-allocation after the approval shows in it).
 */
export const trainRunEnergySettlementDependencyReport = defineReport({
  name: 'trainrunenergysettlementdependency',
  family: 'trainrun',
  title: {
    en: 'Energy per train run and traction unit, approved settlement',
    da: 'Energi pr. togkørsel og trækkraftenhed, godkendt afregning',
    nb: 'Energi per togframføring og trekkraftenhet, godkjent avregning',
    sv: 'Energi per tåg och dragfordon, godkänd avräkning',
    fi: 'Energia junavuoroittain ja vetokalustoittain, hyväksytty selvitys',
    es: 'Energía por circulación y unidad de tracción, liquidación aprobada',
  },
  roles: trainRunEnergyReport.roles,
  period: 'month',
  refs: trainRunEnergyReport.refs,
  source: { procedure: 'settlement', approvedOnly: true },
  columns: [...trainRunEnergyReport.columns, { key: 'settlementVersion', kind: 'integer' }],
  sortKeys: trainRunEnergyReport.sortKeys,
  query: (scope) => {
    const { first, after } = periodDays(scope);
    return sql`
    SELECT to_char(tr.operating_day, 'YYYY-MM-DD') AS "operatingDay", tr.train_number AS "trainNumber",
           o.name AS "organisation", tr.id AS "trainRunId", tr.departure AS "departure", tr.arrival AS "arrival",
           tu.name AS "tractionUnit", ae.traction_unit_uuid AS "tractionUnitUuid",
           sum(ae.active_consumed) AS "activeConsumed", sum(ae.active_regenerated) AS "activeRegenerated",
           sum(ae.active_consumed - ae.active_regenerated) AS "netEnergy", sum(ae.records)::int AS "records",
           ${scope.resultId}::bigint AS "settlementVersion"
      FROM allocated_energy_hourly ae
      JOIN train_run tr ON tr.id = ae.train_run_id AND tr.tenant = ae.tenant
      LEFT JOIN entity_latest o ON o.entity_uuid = tr.ru_uuid
      LEFT JOIN entity_latest tu ON tu.entity_uuid = ae.traction_unit_uuid
     WHERE ae.tenant = ${scope.tenant}::uuid AND ae.category = 'train-run'
       AND tr.operating_day >= ${first} AND tr.operating_day < ${after}
       AND ${organisationScope(sql`ae.organisation_uuid`, scope)}
       AND ${refScope(sql`ae.traction_unit_uuid`, scope.refs.tractionunit)}
       AND EXISTS (SELECT 1 FROM settlement_line l
                    WHERE l.tenant = ae.tenant AND l.procedure_result_id = ${scope.resultId}::bigint
                      AND l.organisation_uuid = ae.organisation_uuid AND l.price_area_uuid = ae.price_area_uuid
                      AND l.day = (ae.hour_start AT TIME ZONE ${scope.zone})::date)
     GROUP BY tr.id, tr.operating_day, tr.train_number, o.name, tr.departure, tr.arrival, ae.traction_unit_uuid, tu.name`;
  },
});
