import { cebdFormat } from '../cebd/cebd-format.js';
import { nordpoolFormat } from '../nordpool/nordpool-format.js';
import { sdvFormat } from '../sdv/sdv-format.js';
import { utiltsFormat } from '../utilts/utilts-format.js';
import { timeSeriesCsvFormat } from '../timeseries-table/csv-format.js';
import { timeSeriesXlsxFormat } from '../timeseries-table/xlsx-format.js';
import { trainRunFormat } from '../trainrun/trainrun-format.js';
import type { FormatName, IntakeFormat } from './format.js';
import { withStorableItems } from './storable-items.js';

/**
 * Every intake format, by name: the upload routes, the import job and the SFTP intake look a
 * format up here. A format module registers by being listed; each hands on only text the database
 * can store (storable-items.ts).
 */
export const INTAKE_FORMATS: Partial<Record<FormatName, IntakeFormat>> = {
  cebd: withStorableItems(cebdFormat),
  utilts: withStorableItems(utiltsFormat),
  sdv: withStorableItems(sdvFormat),
  xlsx: withStorableItems(timeSeriesXlsxFormat),
  csv: withStorableItems(timeSeriesCsvFormat),
  nordpool: withStorableItems(nordpoolFormat),
  trainrun: withStorableItems(trainRunFormat),
};

/** File extensions each format accepts (the upload picks its endpoint by extension). */
export const FORMAT_EXTENSIONS: Record<FormatName, readonly string[]> = {
  cebd: ['xml'],
  utilts: ['edi', 'edifact', 'utilts', 'mscons'],
  sdv: ['sdv', 'xml'],
  xlsx: ['xlsx'],
  csv: ['csv'],
  nordpool: ['csv'],
  trainrun: ['xml'],
};

export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};
