import { describe, expect, it } from 'vitest';
import { buildCpid, consumptionPointAttributesSchema } from './fleet-kinds.js';

const point = { evn: '918800180013', vkm: 'AKBE', emsId: 'EMS1', channels: 2 };

describe('consumption point contract', () => {
  it('builds the CPID as NVR_VKM_EVN_EMSID', () => {
    expect(buildCpid({ nvr: 'BE', vkm: 'AKBE', evn: '918800180013', emsId: 'EMS1' })).toBe('BE_AKBE_918800180013_EMS1');
  });

  it("takes the NVR as the register's two-letter country code and refuses anything else", () => {
    expect(consumptionPointAttributesSchema.safeParse({ ...point, nvr: 'BE' }).success).toBe(true);
    for (const nvr of ['88', 'be', 'BEL', '']) {
      expect(consumptionPointAttributesSchema.safeParse({ ...point, nvr }).success).toBe(false);
    }
  });

  it('keeps channels within 1 to 99 and the EVN at exactly 12 digits', () => {
    expect(consumptionPointAttributesSchema.safeParse({ ...point, nvr: 'BE', channels: 100 }).success).toBe(false);
    expect(consumptionPointAttributesSchema.safeParse({ ...point, nvr: 'BE', evn: '91880018001' }).success).toBe(false);
  });
});
