import { systemContexts, type ServiceContext } from '../context.js';
import type { Database } from '../db/client.js';
import { SYSTEM_USERNAME, type FollowUp } from '../modules/processing/chain.js';

/**
 * What a round the system starts in every area needs (the month-end re-check, the nightly
 * allocation): the database, the chain's follow-up queue and a log.
 */
export interface SystemRoundDeps {
  database: Database;
  followUp: (ctx: ServiceContext, followUp: FollowUp) => Promise<string>;
  log: ServiceContext['log'];
}

/** The area contexts such a round works in, as the system; `why` names the round in the log. */
export const systemRoundAreas = (deps: SystemRoundDeps, why: string): Promise<ServiceContext[]> =>
  systemContexts(deps.database, { username: SYSTEM_USERNAME, log: deps.log, why });
