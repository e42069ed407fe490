import { z } from 'zod';
import { instantSchema, segmentSchema } from '../domain/entity.js';
import {
  CONFIG_PROCEDURE_ALIASES,
  CONFIG_PROCEDURES,
  processingConfigListSchema,
  processingConfigSaveSchema,
  tuSettlementConfigSchema,
  tuSettlementListSchema,
} from '../processing-config.js';
import { DEFAULT_TIME_RANGE } from '../constants.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

const procedureParams = z.object({
  procedure: z.enum([...CONFIG_PROCEDURES, ...(Object.keys(CONFIG_PROCEDURE_ALIASES) as ['shunting-stabling'])]),
});
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

/**
 * Processing configurations (calls.md §7 "Processes and configuration", issue 9 item 2). Reading:
 * processingConfigRead (the settlement role group without the train-run-data provider, audit roles
 * and the consumer included); writing: processingConfigWrite (administrator, settlement-area
 * responsible, settlement operator). See access-rules.ts for the reading of product.md.
 */
export const processingConfigCalls = {
  list: defineCall({
    method: 'GET',
    path: '/domain/processing-config/{procedure}',
    access: POLICIES.processingConfigRead,
    summary: 'The time-segmented versions of a procedure configuration; `current` is the one nearest refTime (now)',
    params: procedureParams,
    query: z.object({ tpa: flag.default(false), refTime: instantSchema.optional() }),
    response: processingConfigListSchema,
  }),
  save: defineCall({
    method: 'POST',
    path: '/domain/processing-config/{procedure}',
    access: POLICIES.processingConfigWrite,
    summary: 'Saves a configuration from a date; the versions it overlaps are split and kept as history',
    params: procedureParams,
    body: processingConfigSaveSchema,
    response: processingConfigListSchema,
  }),
  tuSettlement: defineCall({
    method: 'GET',
    path: '/domain/processing-config/tu-settlement',
    access: POLICIES.processingConfigRead,
    summary: "The transmission-unit settlement configuration of each of the area's settlement areas",
    query: z.object({ refTime: instantSchema.optional() }),
    response: tuSettlementListSchema,
  }),
  saveTuSettlement: defineCall({
    method: 'POST',
    path: '/domain/processing-config/tu-settlement/{settlementAreaId}',
    access: POLICIES.processingConfigWrite,
    params: z.object({ settlementAreaId: z.uuid() }),
    body: z.object({
      validFrom: instantSchema,
      validTo: instantSchema.default(DEFAULT_TIME_RANGE.end),
      comments: text(TEXT_LIMITS.comment).nullable().optional(),
      value: tuSettlementConfigSchema,
    }),
    response: tuSettlementListSchema,
  }),
  versions: defineCall({
    method: 'GET',
    path: '/domain/settlementconfiguration/versions/{uuid}',
    access: POLICIES.processingConfigRead,
    summary: 'Every version of a configuration, current and superseded (the segments history)',
    params: z.object({ uuid: z.uuid() }),
    response: list(segmentSchema, LIST_LIMITS.rows),
  }),
};
