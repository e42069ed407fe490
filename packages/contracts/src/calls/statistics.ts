import { LIST_LIMITS, list } from '../limits.js';
import {
  cebdDeliveryInfoAnswerSchema,
  cebdDeliveryInfoQuerySchema,
  cebdStatisticsQuerySchema,
  cebdStatisticsSchema,
  completenessAnswerSchema,
  completenessQuerySchema,
  dashboardEventSchema,
  dashboardStatisticsItemSchema,
  offsetLagSchema,
  queueSizeSchema,
  statisticsQuerySchema,
} from '../statistics.js';
import { DASHBOARD_CATEGORIES } from '../processing.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * calls.md §7 "Dashboard and statistics" (issue 9 item 6). calls.md names the paths and parameters;
 * where it shows no answer, the summary says what we chose (contracts statistics.ts holds the shapes).
 */
export const statisticsCalls = {
  dashboardStatistics: defineCall({
    method: 'GET',
    path: '/statistics/dashboardstatistics',
    access: POLICIES.statisticsRead,
    summary:
      'Per dashboard category: runs or files in the range by status (initial, running, success, notSuccess, other), their sum, the queue and distinct consumption points',
    query: statisticsQuerySchema,
    response: list(dashboardStatisticsItemSchema, DASHBOARD_CATEGORIES.length),
  }),
  dashboardEvents: defineCall({
    method: 'GET',
    path: '/statistics/dashboardevents',
    access: POLICIES.statisticsRead,
    summary: 'Processing events recorded in the range: incidents summed per process, error code and severity',
    query: statisticsQuerySchema,
    response: list(dashboardEventSchema, LIST_LIMITS.rows),
  }),
  queueSize: defineCall({
    method: 'GET',
    path: '/statistics/queue-size',
    access: POLICIES.statisticsRead,
    summary: "Map of dashboard category to the area's jobs waiting (created or retrying) in its queue",
    response: queueSizeSchema,
  }),
  cebd: defineCall({
    method: 'GET',
    path: '/statistics/cebd',
    access: POLICIES.statisticsRead,
    summary: 'CEBD intake per day for the previous seven days (today included) in the zone',
    query: cebdStatisticsQuerySchema,
    response: cebdStatisticsSchema,
  }),
  offsetLag: defineCall({
    method: 'GET',
    path: '/statistics/offset-lag',
    access: POLICIES.statisticsRead,
    summary: 'Work waiting per stage: records not preprocessed, valid records not allocated, train runs not checked',
    response: offsetLagSchema,
  }),
  completenessTractionUnits: defineCall({
    method: 'GET',
    path: '/statistics/completenessverification/tractionunits',
    access: POLICIES.completenessRead,
    summary:
      'Traction units with a consumption point whose latest CEBD record is older than threshold hours (at least 24), or that never delivered',
    query: completenessQuerySchema,
    response: completenessAnswerSchema,
  }),
  cebdDeliveryInfo: defineCall({
    method: 'GET',
    path: '/statistics/cebd-delivery-info',
    access: POLICIES.statisticsRead,
    summary: 'Per organisation of the type: its units and consumption points, and their latest CEBD delivery',
    query: cebdDeliveryInfoQuerySchema,
    response: cebdDeliveryInfoAnswerSchema,
  }),
};
