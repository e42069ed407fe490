import { LIST_LIMITS, list } from '../limits.js';
import {
  parameterInvalidateSchema,
  parameterOverviewQuerySchema,
  parameterOverviewSchema,
  parameterSaveSchema,
  parameterTypeSchema,
  parameterWriteAnswerSchema,
} from '../parameter-overview.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * calls.md §7 "/timeseries/parameterOverview" (issue 10 item 1). The read of the screen's table is
 * ours (calls.md names the types, the save and the invalidate). Read by the process readers;
 * written by the process runners (the audit roles and the consumer only look).
 */
export const parameterOverviewCalls = {
  types: defineCall({
    method: 'GET',
    path: '/timeseries/parameterOverview/types',
    access: POLICIES.processingRead,
    summary: 'The parameter types: time-series types kept per month per entity',
    response: list(parameterTypeSchema, LIST_LIMITS.small),
  }),
  overview: defineCall({
    method: 'GET',
    path: '/timeseries/parameterOverview',
    access: POLICIES.processingRead,
    summary: "Every entity of the type's kind with its value per month of the range",
    query: parameterOverviewQuerySchema,
    response: parameterOverviewSchema,
  }),
  save: defineCall({
    method: 'POST',
    path: '/timeseries/parameterOverview',
    access: POLICIES.processingRun,
    summary: 'Sets the value of every month of the range for each ref (a changed value is kept in the history)',
    body: parameterSaveSchema,
    response: parameterWriteAnswerSchema,
  }),
  invalidate: defineCall({
    method: 'POST',
    path: '/timeseries/parameterOverview/invalidate',
    access: POLICIES.processingRun,
    summary: 'Removes the values of the range for each ref (kept in the history)',
    body: parameterInvalidateSchema,
    response: parameterWriteAnswerSchema,
  }),
};
