import { LIST_LIMITS, list } from '../limits.js';
import {
  priceAreaBalanceSchema,
  settlementBaseVerificationQuerySchema,
  settlementBaseVerificationRowSchema,
  settlementHourlyQuerySchema,
  settlementHourSchema,
  settlementLineSchema,
  settlementLinesQuerySchema,
  settlementRecordSchema,
  settlementRecordsQuerySchema,
  settlementWarningsQuerySchema,
  settlementWarningsSchema,
} from '../settlement.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

/**
 * Settlement and verification (issue 10). calls.md §7 names the base verification; the balance,
 * a result's lines and the hourly values behind a figure are ours (the screens of product.md §2
 * show them). Read by the process readers; a consumer reads its own organisations' figures only
 * (the service narrows the rows).
 */
export const settlementCalls = {
  baseVerification: defineCall({
    method: 'GET',
    path: '/timeseries/settlement/settlementbaseverification',
    access: POLICIES.processingRead,
    summary:
      'Per organisation and price area for the month: supply, other, estimated, metered, on-account and losses energy with their costs',
    query: settlementBaseVerificationQuerySchema,
    response: list(settlementBaseVerificationRowSchema, LIST_LIMITS.rows),
  }),
  balance: defineCall({
    method: 'GET',
    path: '/timeseries/settlement/settlementbaseverification/balance',
    access: POLICIES.processingRead,
    summary: 'Per price area for the month: supply against metered + estimated + other + losses, and the difference',
    query: settlementBaseVerificationQuerySchema,
    response: list(priceAreaBalanceSchema, LIST_LIMITS.small),
  }),
  lines: defineCall({
    method: 'GET',
    path: '/timeseries/settlement/lines',
    access: POLICIES.processingRead,
    summary: "A settlement result's figures per organisation and price area",
    query: settlementLinesQuerySchema,
    response: list(settlementLineSchema, LIST_LIMITS.rows),
  }),
  hourly: defineCall({
    method: 'GET',
    path: '/timeseries/settlement/hourly',
    access: POLICIES.processingRead,
    summary: "The hourly values behind an organisation's energy of a category in a price area for the month",
    query: settlementHourlyQuerySchema,
    response: list(settlementHourSchema, 744 * 50),
  }),
  records: defineCall({
    method: 'GET',
    path: '/timeseries/settlement/records',
    access: POLICIES.processingRead,
    summary:
      "The 5-minute CEBD records behind an organisation's metered energy in a grid area and hour, with the files they came in",
    query: settlementRecordsQuerySchema,
    response: list(settlementRecordSchema, LIST_LIMITS.rows),
  }),
  warnings: defineCall({
    method: 'GET',
    path: '/timeseries/settlement/warnings',
    access: POLICIES.processingRead,
    summary:
      "What a settlement result's figures lack or no longer match: lines without a contract, supply or prices changed after price-and-supply, prices recalculated after the settlement",
    query: settlementWarningsQuerySchema,
    response: settlementWarningsSchema,
  }),
};
