import { describe, expect, it } from 'vitest';
import { TAX_AREA_RATES_MESSAGE, type VersionedEntity } from '@railwatt/contracts';
import {
  CONTRACT_MESSAGE_KEYS,
  emptyFormValues,
  entityFormSchema,
  entityToFormValues,
  toAttributes,
  type EntityFormValues,
} from './entity-form-schema';

const NORTH = '55555555-5555-4555-8555-555555555555';
const SOUTH = '66666666-6666-4666-8666-666666666666';

const taxCategory = (taxAreaRates: { taxAreaRef: string; rate: string }[]): EntityFormValues => ({
  ...emptyFormValues('taxcategory'),
  name: 'Electricity tax',
  fields: { ...emptyFormValues('taxcategory').fields, rate: '16,69', taxAreaRates },
});

const issuesOf = (values: EntityFormValues) => {
  const parsed = entityFormSchema('taxcategory', true).safeParse(values);
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('rates by tax area in the entity form', () => {
  it('starts a new tax category with no rows', () => {
    expect(emptyFormValues('taxcategory').fields.taxAreaRates).toEqual([]);
  });

  it('sends the rows as tax areas with numeric rates, blank rows left out', () => {
    const values = taxCategory([
      { taxAreaRef: NORTH, rate: '0' },
      { taxAreaRef: '', rate: ' ' },
      { taxAreaRef: SOUTH, rate: '-1,5' },
    ]);
    expect(toAttributes('taxcategory', values, true)).toEqual({
      rate: 16.69,
      taxAreaRates: [
        { taxAreaRef: NORTH, rate: 0 },
        { taxAreaRef: SOUTH, rate: -1.5 },
      ],
    });
    expect(issuesOf(values)).toEqual([]);
    // Only blank rows: nothing is sent (the contract's default, no rates by area).
    expect(toAttributes('taxcategory', taxCategory([{ taxAreaRef: '', rate: '' }]), true)).toEqual({ rate: 16.69 });
  });

  it('reads the stored rates back as rows', () => {
    const entity = {
      uuid: 'c',
      name: 'Electricity tax',
      rate: 16.69,
      taxAreaRates: [{ taxAreaRef: NORTH, rate: 0.25 }],
    };
    expect(entityToFormValues('taxcategory', entity as unknown as VersionedEntity).fields).toMatchObject({
      rate: '16.69',
      taxAreaRates: [{ taxAreaRef: NORTH, rate: '0.25' }],
    });
  });

  it("puts a rate that is no decimal, a row without area and the contract's 'at most once' on the field", () => {
    const on = (message: string) => [{ path: 'fields.taxAreaRates', message }];
    expect(issuesOf(taxCategory([{ taxAreaRef: NORTH, rate: 'low' }]))).toEqual(
      on(JSON.stringify({ rule: 'decimal', field: 'taxAreaRates' })),
    );
    expect(issuesOf(taxCategory([{ taxAreaRef: '', rate: '2' }]))).toEqual(
      on(JSON.stringify({ rule: 'required', field: 'taxAreaRef' })),
    );
    expect(
      issuesOf(
        taxCategory([
          { taxAreaRef: NORTH, rate: '1' },
          { taxAreaRef: NORTH, rate: '2' },
        ]),
      ),
    ).toEqual(on(TAX_AREA_RATES_MESSAGE));
    expect(CONTRACT_MESSAGE_KEYS[TAX_AREA_RATES_MESSAGE]).toBe('validation.tax_area_once');
  });
});
