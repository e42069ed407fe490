import {
  domainExportRequestSchema,
  masterdataExportRequestSchema,
  organisationExportRequestSchema,
  uploadResultSchema,
} from '../excel.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/** calls.md §7 "Files": domain workbook import and export, fleet master data export. */
export const excelCalls = {
  domainImport: defineCall({
    method: 'POST',
    path: '/excel/domain/import',
    access: POLICIES.excelImport,
    summary: 'Import domain workbooks (multipart, up to 5 files, one sheet per entity type)',
    upload: true,
    response: uploadResultSchema,
  }),
  domainExport: defineCall({
    method: 'POST',
    path: '/excel/domain/export',
    access: POLICIES.domainRead,
    summary: 'Export entities as exportedentities.xlsx (the layout the import reads)',
    body: domainExportRequestSchema,
    download: true,
  }),
  masterdataExport: defineCall({
    method: 'POST',
    path: '/excel/masterdata/export',
    access: POLICIES.domainRead,
    summary: 'Export the fleet master data as masterdata.csv (the fleet filter of POST /domain/fleet, or uuids)',
    body: masterdataExportRequestSchema,
    download: true,
  }),
  organisationImport: defineCall({
    method: 'POST',
    path: '/excel/domain/import-org',
    access: POLICIES.organisationWrite,
    summary: 'Import organisation workbooks (multipart, up to 5 files, Organisation sheets only; all or nothing)',
    upload: true,
    response: uploadResultSchema,
  }),
  organisationExport: defineCall({
    method: 'POST',
    // calls.md names the file (exportedorganisations.xlsx) but not the path: this path is ours.
    path: '/excel/domain/export-org',
    access: POLICIES.domainRead,
    summary: 'Export the selected organisations as exportedorganisations.xlsx (the layout import-org reads)',
    body: organisationExportRequestSchema,
    download: true,
  }),
};
