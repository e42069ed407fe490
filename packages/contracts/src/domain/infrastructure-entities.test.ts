import { describe, expect, it } from 'vitest';
import { FEE_LINE_MESSAGES, contractAttributesSchema } from './administration.js';
import { ENTITY_FORMS, mainFieldsOf } from './forms.js';
import {
  AREAS_MUST_DIFFER_MESSAGE,
  LOCATION_MESSAGE,
  borderCrossingAttributesSchema,
  gridAreaCrossingAttributesSchema,
  isLocation,
  supplyMeteringPointAttributesSchema,
} from './infrastructure-entities.js';
import { KIND_ATTRIBUTE_SCHEMAS } from './kind-schemas.js';
import { ENTITY_KINDS, INFRASTRUCTURE_ENTITY_KINDS, toEntityKind, type EntityKind } from './kinds.js';
import { referencesOf } from './references.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('location (product.md §5)', () => {
  it("accepts 'lat,lon' with lat within 90 and lon within 180", () => {
    for (const ok of ['1,1', '59.91,10.75', '-33.9, 18.4', '90,180', '-90,-180', ' 0.5 ,0 ']) {
      expect(isLocation(ok), ok).toBe(true);
    }
  });

  it("refuses anything else with the spec's message", () => {
    for (const bad of ['', '1', '1;1', '91,1', '1,181', 'a,b', '1,1,1', '1.,2']) {
      expect(isLocation(bad), bad).toBe(false);
    }
    const parsed = supplyMeteringPointAttributesSchema.safeParse({
      supplyMeteringPointTypeRef: A,
      gridAreaRef: B,
      location: '100,1',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(LOCATION_MESSAGE);
    expect(LOCATION_MESSAGE).toBe('The value must be a geographic location (e.g. "1,1")');
  });
});

describe('crossings: the two areas must differ', () => {
  it('refuses the same grid area on both sides, on the to field', () => {
    const same = gridAreaCrossingAttributesSchema.safeParse({ fromGridAreaRef: A, toGridAreaRef: A });
    expect(same.error?.issues[0]).toMatchObject({ message: AREAS_MUST_DIFFER_MESSAGE, path: ['toGridAreaRef'] });
    expect(gridAreaCrossingAttributesSchema.safeParse({ fromGridAreaRef: A, toGridAreaRef: B }).success).toBe(true);
  });

  it('refuses a border crossing between one area and itself and needs a location', () => {
    expect(borderCrossingAttributesSchema.safeParse({ fromAreaRef: A, toAreaRef: A, location: '1,1' }).success).toBe(
      false,
    );
    expect(borderCrossingAttributesSchema.safeParse({ fromAreaRef: A, toAreaRef: B }).success).toBe(false);
    expect(borderCrossingAttributesSchema.safeParse({ fromAreaRef: A, toAreaRef: B, location: '1,1' }).success).toBe(
      true,
    );
  });
});

describe('contract fee lines', () => {
  it('name each grid fee type and each energy fee type at most once', () => {
    const twice = contractAttributesSchema.safeParse({ gridFeeTypeRefs: [A, A.toUpperCase()] });
    expect(twice.error?.issues[0]?.message).toBe(FEE_LINE_MESSAGES.gridFeeTypeRefs);
    const energy = contractAttributesSchema.safeParse({ energyFeeTypeRefs: [B, B] });
    expect(energy.error?.issues[0]?.message).toBe(FEE_LINE_MESSAGES.energyFeeTypeRefs);
    // One grid fee type and one energy fee type sharing nothing: fine.
    expect(contractAttributesSchema.safeParse({ gridFeeTypeRefs: [A], energyFeeTypeRefs: [B] }).success).toBe(true);
  });
});

describe('the twelve infrastructure kinds', () => {
  it('are entity kinds with a PascalCase wire type', () => {
    expect(INFRASTRUCTURE_ENTITY_KINDS).toHaveLength(12);
    for (const kind of INFRASTRUCTURE_ENTITY_KINDS) {
      expect(toEntityKind(ENTITY_KINDS[kind])).toBe(kind);
      expect(KIND_ATTRIBUTE_SCHEMAS[kind]).toBeDefined();
    }
  });
});

describe('form descriptors', () => {
  const shapeOf = (kind: EntityKind) =>
    (KIND_ATTRIBUTE_SCHEMAS[kind] as unknown as { shape: Record<string, { safeParse(v: unknown): unknown }> }).shape;

  it.each(Object.keys(ENTITY_FORMS))('%s: the fields of its schema, required as the schema says', (kind) => {
    const fields = ENTITY_FORMS[kind as keyof typeof ENTITY_FORMS];
    const shape = shapeOf(kind as EntityKind);
    expect(fields.map((f) => f.name).sort()).toEqual(Object.keys(shape).sort());
    for (const field of fields) {
      const schema = shape[field.name] as unknown as { isOptional(): boolean };
      expect(!schema.isOptional(), `${kind}.${field.name} required`).toBe(field.required);
    }
  });

  it.each(Object.keys(ENTITY_FORMS))('%s: references as references.ts declares them', (kind) => {
    const refs = new Map(referencesOf(kind as EntityKind).map((r) => [r.field, r.targets]));
    for (const field of ENTITY_FORMS[kind as keyof typeof ENTITY_FORMS]) {
      if (field.input === 'reference' || field.input === 'references')
        expect(field.targets).toEqual(refs.get(field.name));
      else expect(refs.has(field.name), `${kind}.${field.name}`).toBe(false);
    }
  });

  it('flags the admin-only switch and leaves it out of the overview columns', () => {
    const flag = ENTITY_FORMS.supplymeteringpoint.find((f) => f.name === 'excludedFromSettlement');
    expect(flag?.adminOnly).toBe(true);
    expect(mainFieldsOf('supplymeteringpoint')).toEqual(['supplyMeteringPointTypeRef', 'gridAreaRef', 'location']);
  });
});
