import { TPA_SETTLEMENT_AREAS } from '@railwatt/contracts';
import { defineReport } from './define-report.js';
import { SETTLEMENT_LINES_ORDER, settlementReport } from './settlement.js';

/**
 * The settlement report of the TPA settlement (docs/reports.md "tpa-settlement"): in an area that
 * settles for a transmission-system party too (contracts TPA_SETTLEMENT_AREAS), the TPA settlement
 * is settlement run with the tpa option, a chain of versions of its own (its tpa configuration
 * twin). The same lines per organisation and price area as settlement, read from the TPA
 * settlement's versions only (never the plain settlement's), naming the version.
 */
export const tpaSettlementReport = defineReport({
  name: 'tpa-settlement',
  family: 'settlement',
  title: {
    en: 'TPA settlement',
    da: 'TPA-afregning',
    nb: 'TPA-avregning',
    sv: 'TPA-avräkning',
    fi: 'TPA-selvitys',
    es: 'Liquidación TPA',
  },
  ...SETTLEMENT_LINES_ORDER,
  areas: TPA_SETTLEMENT_AREAS,
  source: { procedure: 'settlement', tpa: true },
  sortKeys: settlementReport.sortKeys,
  query: settlementReport.query,
});
