import {
  dataLogActionResultSchema,
  dataLogDownloadQuerySchema,
  dataLogFilterSchema,
  dataLogMessageRefSchema,
  dataLogPageSchema,
  idParamSchema,
  masterDataDownloadQuerySchema,
  masterDataLogPageSchema,
  masterDataLogQuerySchema,
  setToErrorResultSchema,
} from '../datalog.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

const names = list(text(TEXT_LIMITS.identifier), LIST_LIMITS.small);

/**
 * calls.md §7 "Data log, settlement" and "Master-data data log". Which entry may be re-imported,
 * re-exported, re-ordered, set to error or downloaded is datalog-actions.ts's; the policies here only
 * admit the roles that may do it to some entry.
 */
export const dataLogCalls = {
  list: defineCall({
    method: 'GET',
    path: '/eventlog/datalog',
    access: POLICIES.dataLogRead,
    summary: 'Data-log entries of the area, filtered, sorted and paged (zero-based pages, 100 per page by default)',
    query: dataLogFilterSchema,
    response: dataLogPageSchema,
  }),
  types: defineCall({
    method: 'GET',
    path: '/eventlog/datalog/types',
    access: POLICIES.dataLogRead,
    summary: 'The message types the data log filters on',
    response: names,
  }),
  statuses: defineCall({
    method: 'GET',
    path: '/eventlog/datalog/statuses',
    access: POLICIES.dataLogRead,
    summary: 'The message statuses the data log filters on',
    response: names,
  }),
  reimport: defineCall({
    method: 'POST',
    path: '/eventlog/datalog/reimport',
    access: POLICIES.dataLogReimport,
    summary: "Re-import an entry's stored file (calls.md §4 decides which entries)",
    body: dataLogMessageRefSchema,
    response: dataLogActionResultSchema,
  }),
  reexport: defineCall({
    method: 'POST',
    path: '/eventlog/datalog/reexport',
    access: POLICIES.dataLogReexport,
    summary: 'Re-export an ERROR export or a REJECTED/ERROR metered energy aggregation',
    body: dataLogMessageRefSchema,
    response: dataLogActionResultSchema,
  }),
  reorder: defineCall({
    method: 'POST',
    path: '/eventlog/datalog/reorder',
    access: POLICIES.dataLogReorder,
    summary: 'Re-order an ERROR report',
    body: dataLogMessageRefSchema,
    response: dataLogActionResultSchema,
  }),
  download: defineCall({
    method: 'POST',
    path: '/eventlog/datalog/download',
    access: POLICIES.dataLogRead,
    summary: "An entry's stored file, or with response=true its response file (EXP_/RES_ for aggregations)",
    body: dataLogMessageRefSchema,
    query: dataLogDownloadQuerySchema,
    download: true,
  }),
  setToError: defineCall({
    method: 'POST',
    path: '/processing/tasks/set-to-error/{id}',
    access: POLICIES.administratorOnly,
    summary: 'Set a report entry that is neither ERROR nor OK to ERROR',
    params: idParamSchema,
    response: setToErrorResultSchema,
  }),
  masterDataList: defineCall({
    method: 'GET',
    path: '/masterdata/datalog',
    access: POLICIES.administratorOnly,
    summary: 'Master-data transfers of the areas the administrator holds, paged (answer content + page)',
    query: masterDataLogQuerySchema,
    response: masterDataLogPageSchema,
  }),
  masterDataTypes: defineCall({
    method: 'GET',
    path: '/masterdata/datalog/types',
    access: POLICIES.administratorOnly,
    summary: 'Master-data transfer types',
    response: names,
  }),
  masterDataStatuses: defineCall({
    method: 'GET',
    path: '/masterdata/datalog/statuses',
    access: POLICIES.administratorOnly,
    summary: 'Master-data transfer statuses',
    response: names,
  }),
  masterDataDownload: defineCall({
    method: 'GET',
    path: '/masterdata/datalog/download',
    access: POLICIES.administratorOnly,
    summary: 'A transfer file (TRANSFER, TRANSFER_DECOMPRESSED, INTERNAL) or its response (RESPONSE)',
    query: masterDataDownloadQuerySchema,
    download: true,
  }),
};
