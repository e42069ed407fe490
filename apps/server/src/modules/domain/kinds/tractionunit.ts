import { ERROR_CODES } from '@railwatt/contracts';
import { applyApprovalRules } from './approval.js';
import { checkFleetPolicy } from './fleet.js';
import type { KindRules } from './types.js';

export const tractionUnitRules: KindRules = {
  // A traction unit without a name is named by its EVN.
  derive: (attributes, name) => ({ attributes, name: name === '' ? String(attributes.evn) : name }),
  immutable: ['evn'],
  uniqueProperties: [{ property: 'evn', code: 'uniqueproperties', message: `evn: ${ERROR_CODES.uniqueproperties}` }],
  adjust: [applyApprovalRules],
  checkBatch: checkFleetPolicy,
};
