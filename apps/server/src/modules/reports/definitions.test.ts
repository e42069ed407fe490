import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPORT_LOCALES, REPORT_NAMES, REPORT_ORDERERS } from '@railwatt/contracts';
import { describe, expect, it } from 'vitest';
import { familyXsd } from '../../formats/report/xml.js';
import { columnHeader, reportStatuses } from './define-report.js';
import { ALL_REPORTS } from './index.js';

/** docs/reports/<family>.xsd: published, and equal to what the definitions say. WRITE_REPORT_XSD=1 writes them. */
const DOCS = join(dirname(fileURLToPath(import.meta.url)), '../../../../../docs/reports');

describe('the report definitions', () => {
  it('name reports of product.md once each, ordered by roles that may order reports', () => {
    const names = ALL_REPORTS.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const report of ALL_REPORTS) {
      expect(REPORT_NAMES).toContain(report.name);
      for (const role of report.roles) expect(REPORT_ORDERERS).toContain(role);
    }
  });

  it('have a title and every column header in the six languages', () => {
    for (const report of ALL_REPORTS)
      for (const language of REPORT_LOCALES) {
        expect(report.title[language], `${report.name} ${language}`).toBeTruthy();
        for (const column of report.columns) expect(columnHeader(column, language, 'NOK')).toBeTruthy();
      }
  });

  it('publish one XSD per family in docs/reports, equal to the definitions', () => {
    const families = [...new Set(ALL_REPORTS.map((r) => r.family))];
    for (const family of families) {
      const xsd = familyXsd(
        family,
        ALL_REPORTS.filter((r) => r.family === family),
      );
      const file = join(DOCS, `${family}.xsd`);
      if (process.env.WRITE_REPORT_XSD === '1') writeFileSync(file, xsd);
      expect(existsSync(file), `${file} (WRITE_REPORT_XSD=1 writes it)`).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(xsd);
    }
  });

  it('read statuses by role as calls.md §4 says', () => {
    expect(reportStatuses(['consumer'], false)).toEqual(['approved', 'corrected']);
    expect(reportStatuses(['consumer'], true)).toEqual(['approved']);
    expect(reportStatuses(['settlement-area-responsible'], true)).toEqual(['approved', 'success']);
    expect(reportStatuses(['vehicle-keeper'], false)).toEqual(['approved', 'success']);
    // An area-wide role reads as the area's staff even beside the consumer function.
    expect(reportStatuses(['consumer', 'erex-settlement-operator'], false)).toEqual(['approved', 'success']);
  });
});
