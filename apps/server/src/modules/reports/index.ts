import { fifteenMinOverviewReport } from './15minoverview.js';
import { accumulatedEnergyReport } from './accumulatedenergy.js';
import { consumptionReport } from './consumption.js';
import { customerInvoiceMonthAppendixReport } from './customerinvoicemonthappendix.js';
import { reportTable } from './service.js';
import type { ReportDefinition } from './define-report.js';
import { energyMarketReport } from './energymarket.js';
import { energyRawDataReport } from './energyrawdata.js';
import { gridAreaSettlementReport } from './gridarea-settlement.js';
import { priceElementsReport } from './priceelements.js';
import { settlementReport } from './settlement.js';
import { shuntingAndStablingReport } from './shuntingandstabling.js';
import { supplierReport } from './supplier.js';
import { totalTrainRunEnergyReport } from './totaltrainrunenergy.js';
import { trainRunEnergyReport } from './trainrunenergy.js';
import { fifteenMinDetailedReport } from './15mindetailed.js';
import { accumulatedEnergySettlementDependencyReport } from './accumulatedenergysettlementdependency.js';
import { agressoExportSettlementReport } from './agressoexportsettlement.js';
import { erpSettlementTotalReport } from './erpsettlementtotal.js';
import { portugalSettlementOverviewReport } from './portugal-settlementoverview.js';
import { settlementOverviewReport } from './settlementoverview.js';
import { settlementSummaryReport } from './settlementsummary.js';
import { tpaSettlementReport } from './tpa-settlement.js';
import { tpaSupplierReport } from './tpa-supplier.js';
import { trainRunEnergySettlementDependencyReport } from './trainrunenergysettlementdependency.js';
import { accumulatedMeteredTrainEnergyInTaxAreaReport } from './accumulatedmeteredtrainenergyintaxarea.js';
import { agressoOnAccountReport } from './agressoonaccount.js';
import { energyCorrectionReport } from './energycorrection.js';
import { energySupplyAndCostReport } from './energysupplyandcost.js';
import { expenseReport } from './expense.js';
import { nonMeteredTractionUnitsReport } from './nonmeteredtractionunits.js';
import { onAccountAppendixReport } from './onaccountappendix.js';
import { overviewOfInvoicedCostReport } from './overviewofinvoicedcost.js';
import { settlementOverviewOnAccountReport } from './settlementoverviewonaccount.js';
import { surveillanceAreaReport } from './surveillancearea.js';

/**
 * Every report the server makes (issue 20), each one defineReport in its own file of this folder:
 * an imported list, read by the report calls and the report-order job (nothing registers itself).
 * contracts REPORT_NAMES lists all 33 of product.md; GET /domain/reports answers the ones here.
 */
export const ALL_REPORTS: readonly ReportDefinition[] = [
  settlementReport,
  gridAreaSettlementReport,
  supplierReport,
  customerInvoiceMonthAppendixReport,
  energyRawDataReport,
  consumptionReport,
  shuntingAndStablingReport,
  fifteenMinOverviewReport,
  accumulatedEnergyReport,
  trainRunEnergyReport,
  totalTrainRunEnergyReport,
  energyMarketReport,
  priceElementsReport,
  // The settlement versions, their overviews and the ERP exports.
  fifteenMinDetailedReport,
  trainRunEnergySettlementDependencyReport,
  accumulatedEnergySettlementDependencyReport,
  settlementSummaryReport,
  settlementOverviewReport,
  portugalSettlementOverviewReport,
  tpaSettlementReport,
  tpaSupplierReport,
  erpSettlementTotalReport,
  agressoExportSettlementReport,
  // Issue 20, the on-account, correction, area and cost reports.
  onAccountAppendixReport,
  agressoOnAccountReport,
  settlementOverviewOnAccountReport,
  energyCorrectionReport,
  surveillanceAreaReport,
  nonMeteredTractionUnitsReport,
  energySupplyAndCostReport,
  expenseReport,
  overviewOfInvoicedCostReport,
  accumulatedMeteredTrainEnergyInTaxAreaReport,
] as readonly ReportDefinition[];

/** ALL_REPORTS by name, built once (the report calls and the report-order job read it). */
export const REPORTS = reportTable(ALL_REPORTS);
