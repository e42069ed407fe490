import { SUPPLY_METERING_POINT_NAME_MESSAGE, SUPPLY_METERING_POINT_NAME_PATTERN } from '@railwatt/contracts';
import { keepAdminOnlyFields } from './admin-only.js';
import type { KindRules } from './types.js';

export const supplyMeteringPointRules: KindRules = {
  /**
   * product.md §5: a supply metering point's name is the identifier the supply/substation input names
   * it by (one token); it is unique among current segments like every name (uniquename). Checked for
   * what users save (forms, imports); trusted seeders are not held to it.
   */
  checkValid: (v) =>
    SUPPLY_METERING_POINT_NAME_PATTERN.test(v.name)
      ? undefined
      : {
          index: v.index,
          uuid: v.uuid,
          field: 'name',
          code: 'invalid_input',
          message: `name: ${SUPPLY_METERING_POINT_NAME_MESSAGE}`,
        },
  adjust: [keepAdminOnlyFields],
};
