import { applyApprovalRules } from './approval.js';
import type { KindRules } from './types.js';

export const tractionUnitTypeRules: KindRules = {
  adjust: [applyApprovalRules],
};
