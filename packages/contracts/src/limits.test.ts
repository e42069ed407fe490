import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contracts from './index.js';
import {
  DATE_OUT_OF_RANGE_MESSAGE,
  MAX_JSON_DEPTH,
  NUL_MESSAGE,
  RANGE_ORDER_MESSAGE,
  jsonDepthExceeds,
  list,
  text,
} from './limits.js';

/** Fixed formats whose length the format itself bounds. */
const BOUNDED_FORMATS = new Set(['uuid', 'guid', 'datetime', 'date', 'time']);

interface Inner {
  _zod: { def: Record<string, unknown> & { type: string; format?: string; checks?: Inner[] } };
}

/** A max_length or length_equals check among the schema's own checks. */
const hasMaximum = (def: Inner['_zod']['def']): boolean =>
  (def.checks ?? []).some((c) => ['max_length', 'length_equals'].includes(String(c._zod.def.check)));

/**
 * Paths (schema name and place inside it) of every string without a maximum length and every
 * array without a maximum count reachable from `schema`.
 */
function unbounded(schema: z.ZodType, path: string, seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const { def } = (schema as unknown as Inner)._zod;
  const walk = (child: unknown, at: string) => (child ? unbounded(child as z.ZodType, at, seen) : []);
  switch (def.type) {
    case 'string':
      if (def.format && BOUNDED_FORMATS.has(def.format)) return [];
      return hasMaximum(def) ? [] : [`${path} (string)`];
    case 'array':
      return [...(hasMaximum(def) ? [] : [`${path} (array)`]), ...walk(def.element, `${path}[]`)];
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>;
      return [
        ...Object.entries(shape).flatMap(([key, child]) => walk(child, `${path}.${key}`)),
        ...walk(def.catchall, `${path}.*`),
      ];
    }
    case 'record':
      return [...walk(def.keyType, `${path}{key}`), ...walk(def.valueType, `${path}{value}`)];
    case 'tuple':
      return [
        ...(def.items as z.ZodType[]).flatMap((item, i) => walk(item, `${path}[${i}]`)),
        ...walk(def.rest, `${path}[...]`),
      ];
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option, i) => walk(option, `${path}|${i}`));
    case 'intersection':
      return [...walk(def.left, path), ...walk(def.right, path)];
    case 'pipe':
      return [...walk(def.in, path), ...walk(def.out, path)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType, path);
    case 'lazy':
      return walk((def.getter as () => z.ZodType)(), path);
    default:
      // Numbers, booleans, enums, literals, unknown (answers' opaque values), transforms.
      return [];
  }
}

const exportedSchemas: [string, z.ZodType][] = Object.entries(contracts as Record<string, unknown>).flatMap(
  ([name, value]) => (value instanceof z.ZodType ? [[name, value] as [string, z.ZodType]] : []),
);

describe('every contract is bounded', () => {
  it('finds the exported schemas', () => {
    // A guard against the walk silently checking nothing (e.g. if the exports stopped being zod types).
    expect(exportedSchemas.length).toBeGreaterThan(60);
    expect(exportedSchemas.map(([name]) => name)).toContain('statusChangeRequestSchema');
  });

  it('gives every string a maximum length and every list a maximum count', () => {
    const problems = exportedSchemas.flatMap(([name, schema]) => unbounded(schema, name));
    expect(problems).toEqual([]);
  });

  it('every kind attribute schema is bounded too', () => {
    const problems = Object.entries(contracts.KIND_ATTRIBUTE_SCHEMAS).flatMap(([kind, schema]) =>
      unbounded(schema, `KIND_ATTRIBUTE_SCHEMAS.${kind}`),
    );
    expect(problems).toEqual([]);
  });

  it('the walk does find an unbounded string and list', () => {
    const open = z.object({ a: z.string(), b: z.array(text(10)).optional(), c: list(z.string(), 3) });
    expect(unbounded(open, 'open')).toEqual(['open.a (string)', 'open.b (array)', 'open.c[] (string)']);
  });
});

describe('text() and list()', () => {
  it('refuses NUL and over-long strings, naming the problem', () => {
    expect(text(5).safeParse('abc').success).toBe(true);
    expect(text(5).safeParse('abcdef').error?.issues[0]?.message).toBe('At most 5 characters');
    expect(text(5).safeParse('a\u0000b').error?.issues[0]?.message).toBe(NUL_MESSAGE);
  });

  it('refuses a list over its count', () => {
    expect(list(z.number(), 2).safeParse([1, 2]).success).toBe(true);
    expect(list(z.number(), 2).safeParse([1, 2, 3]).success).toBe(false);
  });

  it('an entity name with a NUL is refused on the name field', () => {
    const result = contracts.saveEntitySchema.safeParse({ type: 'TractionUnit', name: 'x\u0000' });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['name', NUL_MESSAGE]]);
  });

  it('a status change takes at most 10,000 uuids', () => {
    const uuid = '00000000-0000-4000-8000-000000000001';
    const body = (n: number) => ({
      action: 'setactive',
      uuids: Array.from({ length: n }, () => uuid),
      type: 'TractionUnit',
      timeRange: { start: '2024-01-01T00:00:00Z', end: '2025-01-01T00:00:00Z' },
    });
    expect(contracts.statusChangeRequestSchema.safeParse(body(10_000)).success).toBe(true);
    expect(contracts.statusChangeRequestSchema.safeParse(body(10_001)).success).toBe(false);
  });
});

describe('time ranges', () => {
  it('refuses start after end on the end field', () => {
    const result = contracts.timeRangeSchema.safeParse({ start: '2025-01-01T00:00:00Z', end: '2024-01-01T00:00:00Z' });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['end', RANGE_ORDER_MESSAGE]]);
    const query = contracts.timeRangeQuerySchema.safeParse({
      start: '2025-01-01T00:00:00Z',
      end: '2024-01-01T00:00:00Z',
    });
    expect(query.error?.issues[0]?.path).toEqual(['end']);
  });

  it('accepts the product range 1970-01-01 .. 2070-01-01 and nothing outside it', () => {
    const ok = contracts.timeRangeSchema.safeParse({ ...contracts.DEFAULT_TIME_RANGE });
    expect(ok.success).toBe(true);
    for (const instant of ['1969-12-31T23:59:59Z', '2070-01-01T00:00:01Z', '9999-12-31T00:00:00Z']) {
      const result = contracts.instantSchema.safeParse(instant);
      expect(result.error?.issues[0]?.message).toBe(DATE_OUT_OF_RANGE_MESSAGE);
    }
    expect(contracts.publicHolidayAttributesSchema.safeParse({ date: '2071-05-17' }).success).toBe(false);
  });
});

describe('jsonDepthExceeds', () => {
  it('counts nesting of objects and arrays, not brackets inside strings', () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[{"c":1}]}}', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[{"c":1}]},"d":[1]}', 4)).toBe(false);
  });
});
