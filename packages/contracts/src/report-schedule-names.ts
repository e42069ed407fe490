import type { ReportName } from './reports.js';

/**
 * product.md §2 "order pages (some with schedule pages)": the 29 with one. The invoice appendices and
 * ERP exports are made per billing run, not on a clock; the server refuses to schedule them. A module
 * of its own without schemas: the web's route table (in the shell's first JavaScript) reads it.
 */
export const UNSCHEDULED_REPORTS: readonly ReportName[] = [
  'onaccountappendix',
  'agressoexportsettlement',
  'customerinvoicemonthappendix',
  'agressoonaccount',
];
export const isSchedulable = (name: ReportName): boolean => !UNSCHEDULED_REPORTS.includes(name);
