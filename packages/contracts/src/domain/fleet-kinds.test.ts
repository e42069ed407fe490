import { describe, expect, it } from 'vitest';
import {
  buildCpid,
  consumptionPointAttributesSchema,
  evnSchema,
  FLEET_FIELD_MESSAGES,
  tractionUnitAttributesSchema,
  uicCheckDigit,
} from './fleet-kinds.js';

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

describe('EVN and VKM rules shared by server and form', () => {
  const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
    result.error?.issues.map((i) => i.message) ?? [];

  it('computes the UIC check digit over the first eleven digits (weights 2,1,2,... from the left)', () => {
    // The worked example of UIC leaflet 920-1: 21 81 2471 217-3.
    expect(uicCheckDigit('21812471217')).toBe(3);
    expect(uicCheckDigit('91760010001')).toBe(5);
    expect(uicCheckDigit('00000000000')).toBe(0);
  });

  it('accepts an EVN whose last digit is its check digit and refuses a wrong one with the spec message', () => {
    expect(evnSchema.safeParse('218124712173').success).toBe(true);
    expect(evnSchema.safeParse('917600100015').success).toBe(true);
    const wrong = evnSchema.safeParse('917600100013');
    expect(messages(wrong)).toEqual([FLEET_FIELD_MESSAGES.evnCheckDigit]);
    expect(FLEET_FIELD_MESSAGES.evnCheckDigit).toBe('The EVN field is not valid');
    // Too short is one message (digits), not the check-digit message as well.
    expect(messages(evnSchema.safeParse('91760010001'))).toEqual(['The EVN field must be exactly 12 digits']);
  });

  it('applies the EVN rule to traction units and consumption points alike', () => {
    const unit = { evn: '917600100013', owner: '00000000-0000-4000-8000-000000000001' };
    expect(tractionUnitAttributesSchema.safeParse(unit).success).toBe(false);
    expect(tractionUnitAttributesSchema.safeParse({ ...unit, evn: '917600100015' }).success).toBe(true);
    expect(consumptionPointAttributesSchema.safeParse({ ...point, nvr: 'BE', evn: '917600100013' }).success).toBe(
      false,
    );
  });

  it('refuses a lower-case or mixed-case VKM with the format message and keeps upper-case markings', () => {
    for (const vkm of ['NSB', 'AKBE', 'DBCSC', 'NT']) {
      expect(consumptionPointAttributesSchema.safeParse({ ...point, nvr: 'BE', vkm }).success).toBe(true);
    }
    for (const vkm of ['akbe', 'RhB', 'N', 'TOOLONG', 'NS1', '']) {
      const result = consumptionPointAttributesSchema.safeParse({ ...point, nvr: 'BE', vkm });
      expect({ vkm, messages: messages(result) }).toEqual({ vkm, messages: [FLEET_FIELD_MESSAGES.vkmFormat] });
    }
    expect(FLEET_FIELD_MESSAGES.vkmFormat).toBe('The VKM field format is invalid');
  });
});
