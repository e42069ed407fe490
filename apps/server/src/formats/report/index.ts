import { csvRenderer } from './csv.js';
import type { ReportRenderer } from './render.js';
import { xlsxRenderer } from './xlsx.js';
import { xmlRenderer } from './xml.js';

export * from './render.js';
export { familyXsd, reportNamespace } from './xml.js';

/** One renderer per report format (contracts REPORT_FORMATS). */
export const REPORT_RENDERERS: Readonly<Record<'xlsx' | 'csv' | 'xml', ReportRenderer>> = {
  xlsx: xlsxRenderer,
  csv: csvRenderer,
  xml: xmlRenderer,
};
