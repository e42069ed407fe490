import { keepAdminOnlyFields } from './admin-only.js';
import type { KindRules } from './types.js';

export const fixedMeteringPointRules: KindRules = {
  adjust: [keepAdminOnlyFields],
};
