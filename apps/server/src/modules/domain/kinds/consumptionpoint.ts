import { ERROR_CODES, buildConsumptionPointName, buildCpid } from '@railwatt/contracts';
import { checkFleetPolicy } from './fleet.js';
import type { KindRules } from './types.js';

export const consumptionPointRules: KindRules = {
  // The CPID and the name are built from the EVN, NVR, VKM and EMS id; a given name is ignored.
  derive: (attributes) => {
    const cp = attributes as { evn: string; nvr: string; vkm: string; emsId: string };
    return { attributes: { ...attributes, cpid: buildCpid(cp) }, name: buildConsumptionPointName(cp) };
  },
  uniqueProperties: [{ property: 'cpid', code: 'uniqueproperties', message: `cpid: ${ERROR_CODES.uniqueproperties}` }],
  checkBatch: checkFleetPolicy,
};
