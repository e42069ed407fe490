import { ERROR_CODES } from '@railwatt/contracts';
import { mayChangeExchangeAdmin } from '../policy.js';
import type { KindRules } from './types.js';

export const organisationRules: KindRules = {
  uniqueProperties: [{ property: 'orgId', code: 'uniqueorgid', message: ERROR_CODES.uniqueorgid }],
  /**
   * Only the erex-administrator changes which exchange admin an organisation is connected to
   * (issue 6 §4): otherwise a writer could first move an owner to its own exchange admin and then
   * change units "connected to another exchange admin". A new organisation may name one.
   */
  checkRecord: (actor, p, segments) => {
    if (!segments?.length || mayChangeExchangeAdmin(actor)) return undefined;
    const next = p.record.attributes.exchangeAdminRef ?? null;
    if (!segments.some((s) => (s.attributes.exchangeAdminRef ?? null) !== next)) return undefined;
    return {
      index: p.record.index,
      uuid: p.uuid,
      field: 'exchangeAdminRef',
      code: 'forbidden',
      status: 403,
      message: 'Only the erex-administrator changes the exchange admin of an organisation',
    };
  },
};
