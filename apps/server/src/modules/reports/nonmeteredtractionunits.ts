import { AREA_WIDE_ROLES } from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { defineReport } from './define-report.js';
import { organisationScope, periodDays } from './sql.js';
import { TRAIN_RUN_TEXTS, type Texts } from './texts.js';

/**
 * The runs of units without a meter and their estimate (docs/reports.md "nonmeteredtractionunits"):
 * every train run of the month's operating days that an estimation procedure estimated (its rows of
 * `estimated_energy`: a run gets them only when none of its units has a meter), with the units of
 * its composition by EVN, the gross tonne-km the estimate used, the factor (kWh per gross tonne-km)
 * and where it came from, the method, and the estimated energy summed over the run's hours and grid
 * areas. A consumer sees the runs its organisations pay for (the run's railway undertaking).
 */
const TEXTS = {
  evns: {
    en: 'EVNs',
    da: 'EVN-numre',
    nb: 'EVN-nummer',
    sv: 'EVN-nummer',
    fi: 'EVN-numerot',
    es: 'Números EVN',
  },
  grossTonneKm: {
    en: 'Gross tonne-km',
    da: 'Bruttotonkilometer',
    nb: 'Bruttotonnkilometer',
    sv: 'Bruttotonkilometer',
    fi: 'Bruttotonnikilometrit',
    es: 'Toneladas-km brutas',
  },
  factor: {
    en: 'Factor (kWh per gross tonne-km)',
    da: 'Faktor (kWh pr. bruttotonkilometer)',
    nb: 'Faktor (kWh per bruttotonnkilometer)',
    sv: 'Faktor (kWh per bruttotonkilometer)',
    fi: 'Kerroin (kWh bruttotonnikilometriä kohti)',
    es: 'Factor (kWh por tonelada-km bruta)',
  },
  factorSource: {
    en: 'Factor from',
    da: 'Faktor fra',
    nb: 'Faktor fra',
    sv: 'Faktor från',
    fi: 'Kertoimen lähde',
    es: 'Origen del factor',
  },
  method: { en: 'Method', da: 'Metode', nb: 'Metode', sv: 'Metod', fi: 'Menetelmä', es: 'Método' },
  railwayUndertaking: {
    en: 'Railway undertaking',
    da: 'Jernbanevirksomhed',
    nb: 'Jernbaneforetak',
    sv: 'Järnvägsföretag',
    fi: 'Rautatieyritys',
    es: 'Empresa ferroviaria',
  },
} as const satisfies Record<string, Texts>;

export const nonMeteredTractionUnitsReport = defineReport({
  name: 'nonmeteredtractionunits',
  family: 'estimate',
  title: {
    en: 'Non-metered traction units',
    da: 'Trækkraftenheder uden måler',
    nb: 'Trekkraftenheter uten måler',
    sv: 'Dragfordon utan mätare',
    fi: 'Mittaamaton vetokalusto',
    es: 'Unidades de tracción sin contador',
  },
  roles: [...AREA_WIDE_ROLES, 'consumer'],
  period: 'month',
  refs: [{ kind: 'organisation', many: true }],
  source: null,
  columns: [
    { key: 'operatingDay', kind: 'day', texts: TRAIN_RUN_TEXTS.operatingDay },
    { key: 'trainNumber', kind: 'text', texts: TRAIN_RUN_TEXTS.trainNumber },
    { key: 'railwayUndertaking', kind: 'text', texts: TEXTS.railwayUndertaking },
    { key: 'departure', kind: 'time', texts: TRAIN_RUN_TEXTS.departure },
    { key: 'arrival', kind: 'time', texts: TRAIN_RUN_TEXTS.arrival },
    { key: 'evns', kind: 'text', texts: TEXTS.evns },
    { key: 'grossTonneKm', kind: 'number', texts: TEXTS.grossTonneKm },
    { key: 'factor', kind: 'number', texts: TEXTS.factor },
    { key: 'factorSource', kind: 'text', texts: TEXTS.factorSource },
    { key: 'method', kind: 'text', texts: TEXTS.method },
    { key: 'estimatedEnergy', kind: 'number', unit: 'kWh' },
  ],
  sortKeys: ['operatingDay', 'trainNumber', 'railwayUndertaking', 'trainRunId'],
  query: (scope) => {
    const { first, after } = periodDays(scope);
    return sql`
      SELECT to_char(e.operating_day, 'YYYY-MM-DD') AS "operatingDay", tr.train_number AS "trainNumber",
             o.name AS "railwayUndertaking", e.train_run_id AS "trainRunId",
             tr.departure AS "departure", tr.arrival AS "arrival",
             (SELECT string_agg(v.evn, ' ' ORDER BY v.position) FROM train_run_vehicle v
               WHERE v.train_run_id = tr.id AND v.tenant = tr.tenant) AS "evns",
             coalesce(max(e.gross_tonne_km), tr.gross_tonne_km) AS "grossTonneKm",
             max(e.factor) AS "factor", min(e.factor_source) AS "factorSource", min(e.method) AS "method",
             sum(e.energy_kwh) AS "estimatedEnergy"
        FROM estimated_energy e
        JOIN train_run tr ON tr.id = e.train_run_id AND tr.tenant = e.tenant
        LEFT JOIN entity_latest o ON o.entity_uuid = e.organisation_uuid
       WHERE e.tenant = ${scope.tenant}::uuid AND e.operating_day >= ${first} AND e.operating_day < ${after}
         AND ${organisationScope(sql`e.organisation_uuid`, scope)}
       GROUP BY e.operating_day, e.train_run_id, tr.id, tr.tenant, tr.train_number, o.name, tr.departure,
                tr.arrival, tr.gross_tonne_km`;
  },
});
