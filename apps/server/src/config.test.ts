import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('limits Excel imports to 20 MB unless EXCEL_IMPORT_MAX_FILE_BYTES says otherwise', () => {
    expect(loadConfig({}).excelImportMaxFileBytes).toBe(20 * 1024 * 1024);
    expect(loadConfig({ EXCEL_IMPORT_MAX_FILE_BYTES: '5000000' }).excelImportMaxFileBytes).toBe(5_000_000);
  });

  it('refuses a size limit that is not a positive whole number, rather than ignoring it', () => {
    expect(() => loadConfig({ EXCEL_IMPORT_MAX_FILE_BYTES: 'lots' })).toThrow(/Invalid positive integer/);
    expect(() => loadConfig({ EXCEL_IMPORT_MAX_FILE_BYTES: '-1' })).toThrow(/Invalid positive integer/);
  });
});
