import { MAX_JSON_DEPTH, errorEnvelopeSchema, type AreaKind } from '@railwatt/contracts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';

/**
 * The hostile-input probe: every /api route the server registers (read from its OpenAPI document,
 * so a new route is probed without being listed here) gets over-long strings, NUL characters, deep
 * nesting, wrong types, huge numbers, invalid uuids and dates and reversed time ranges, in its path,
 * query and body, as the erex-administrator (the user who passes the most access checks). Nothing
 * may answer 5xx, and every 400 carries the calls.md §8 envelope.
 */

const ADMIN = 'erex-administrator';
const UUID = '00000000-0000-4000-8000-000000000001';
const LONG = 'x'.repeat(100_000);

interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  minItems?: number;
}

interface Operation {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

/** Property names whose plausible value is an entity type, so bodies get past the type check into the kind's rules. */
const TYPE_PROPERTIES = new Set(['type', 'typeName']);

/** A plausible value for a JSON schema: the probe mutates it one place at a time. */
function sample(schema: JsonSchema | undefined, depth = 0, name = ''): unknown {
  if (!schema || depth > 8) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const options = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (options?.length) return sample(options.find((o) => o.type !== 'null') ?? options[0], depth + 1, name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const entries = Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v, depth + 1, k)]);
      return Object.fromEntries(entries);
    }
    case 'array': {
      const item = Array.isArray(schema.items) ? schema.items[0] : (schema.items ?? schema.prefixItems?.[0]);
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(item, depth + 1));
    }
    case 'string':
      if (schema.format === 'uuid') return UUID;
      if (schema.format === 'date-time') return '2024-01-01T00:00:00Z';
      if (schema.format === 'date') return '2024-01-01';
      if (schema.format === 'email') return 'a@example.com';
      return TYPE_PROPERTIES.has(name) ? 'TractionUnit' : 'Probe';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return 'Probe';
  }
}

/** Hostile replacements for one value. */
const HOSTILE_VALUES: Record<string, unknown> = {
  'over-long string': LONG,
  'NUL character': 'a\u0000b',
  'huge number': 1e308,
  'negative number': -1,
  'wrong type (object)': { nested: { deeper: [1, 2, 3] } },
  'wrong type (array of 20,000)': Array.from({ length: 20_000 }, () => UUID),
  'invalid uuid': 'not-a-uuid',
  'date in year 9999': '9999-12-31T00:00:00Z',
  'invalid date': '2024-13-45T25:61:00Z',
  'reversed time range': { start: '2025-01-01T00:00:00Z', end: '2024-01-01T00:00:00Z' },
};

const HOSTILE_QUERY: Record<string, string> = {
  'over-long string': 'x'.repeat(5000),
  'NUL character': 'a%00b',
  'huge number': '1e400',
  'huge integer': '99999999999999999999999',
  'negative number': '-1',
  'invalid uuid': 'not-a-uuid',
  'invalid date': '2024-13-45T25:61:00Z',
  'date in year 9999': '9999-12-31T00:00:00Z',
};

const HOSTILE_PATH: Record<string, string> = {
  'invalid uuid': 'not-a-uuid',
  'NUL character': 'a%00b',
  'over-long segment': 'x'.repeat(5000),
  'unknown type': 'NoSuchType',
};

/** Every place (path of keys) in a sampled body, leaves and containers. */
function places(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = at.length ? [at] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => places(v, [...at, i]))];
  if (value && typeof value === 'object')
    return [...here, ...Object.entries(value).flatMap(([k, v]) => places(v, [...at, k]))];
  return here;
}

function replaced(value: unknown, at: (string | number)[], by: unknown): unknown {
  if (at.length === 0) return by;
  const copy: unknown = Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) };
  const [head, ...rest] = at;
  (copy as Record<string | number, unknown>)[head!] = replaced(
    (value as Record<string | number, unknown>)[head!],
    rest,
    by,
  );
  return copy;
}

const nested = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

interface Probe {
  label: string;
  options: InjectOptions;
}

describe('hostile input on every route', () => {
  let t: TestApp;
  const headers: Partial<Record<AreaKind, Record<string, string>>> = {};

  beforeAll(async () => {
    t = await createTestApp({ seeders: ['areas', 'users', 'fleet'] });
    for (const kind of ['norway', 'administration', 'exchange'] as const)
      headers[kind] = await t.headersFor(ADMIN, kind);
  });
  afterAll(async () => t?.close());

  const routes = () => {
    const spec = (t.app as unknown as { swagger(): { paths: Record<string, Record<string, Operation>> } }).swagger();
    return Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/') && !path.startsWith('/api/docs'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
      );
  };

  it('reads the routes from the OpenAPI document', () => {
    const listed = routes().map((r) => `${r.method} ${r.path}`);
    expect(listed.length).toBeGreaterThan(40);
    expect(listed).toContain('POST /api/domain/save');
    expect(listed).toContain('POST /api/excel/domain/import');
  });

  it('never answers 5xx, and every 400 is the spec envelope', async () => {
    const failures: string[] = [];
    let sent = 0;
    const send = async (kind: AreaKind, probe: Probe): Promise<LightMyRequestResponse> => {
      sent++;
      const response = await t.app.inject({
        ...probe.options,
        headers: { ...headers[kind], ...(probe.options.headers ?? {}) },
      });
      if (response.statusCode >= 500)
        failures.push(`${probe.label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      else if (response.statusCode === 400) {
        const parsed = errorEnvelopeSchema.safeParse(response.json());
        if (!parsed.success) failures.push(`${probe.label}: 400 without the envelope: ${response.body.slice(0, 200)}`);
      }
      return response;
    };

    for (const { path, method, operation } of routes()) {
      const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path');
      const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const content = operation.requestBody?.content ?? {};
      const multipart = 'multipart/form-data' in content;
      const bodySchema = content['application/json']?.schema;
      const goodPath = (overrides: Record<string, string> = {}) =>
        path.replace(/\{(\w+)\}/g, (_m, name: string) => {
          if (name in overrides) return overrides[name]!;
          const schema = pathParams.find((p) => p.name === name)?.schema;
          return String(sample(schema)).replace('Probe', name === 'type' ? 'TractionUnit' : 'x');
        });
      const goodQuery = Object.fromEntries(
        queryParams.map((p) => [p.name, String(sample(p.schema) ?? '')]).filter(([, v]) => v !== 'Probe'),
      );
      const goodBody = bodySchema ? sample(bodySchema) : undefined;
      const base = `${method} ${path}`;
      const request = (url: string, query: Record<string, string>, payload: unknown, extra: InjectOptions = {}) => ({
        method: method as InjectOptions['method'],
        url,
        query,
        ...(payload !== undefined ? { payload: payload as InjectOptions['payload'] } : {}),
        ...extra,
      });

      // The area in which the administrator may make the call (most are country calls; users and
      // organisations of the Administration section run in that area).
      let kind: AreaKind = 'norway';
      for (const candidate of ['norway', 'administration', 'exchange'] as const) {
        const response = await send(candidate, {
          label: `${base} (sample)`,
          options: request(goodPath(), goodQuery, goodBody),
        });
        if (response.statusCode !== 403) {
          kind = candidate;
          break;
        }
      }

      const probes: Probe[] = [];
      for (const param of pathParams)
        for (const [name, value] of Object.entries(HOSTILE_PATH))
          probes.push({
            label: `${base} path ${param.name}: ${name}`,
            options: request(goodPath({ [param.name]: value }), goodQuery, goodBody),
          });
      for (const param of queryParams)
        for (const [name, value] of Object.entries(HOSTILE_QUERY))
          probes.push({
            label: `${base} query ${param.name}: ${name}`,
            options: request(goodPath(), { ...goodQuery, [param.name]: value }, goodBody),
          });
      if (queryParams.some((p) => p.name === 'start') && queryParams.some((p) => p.name === 'end'))
        probes.push({
          label: `${base} query start after end`,
          options: request(
            goodPath(),
            { ...goodQuery, start: '2025-01-01T00:00:00Z', end: '2024-01-01T00:00:00Z' },
            goodBody,
          ),
        });
      if (method !== 'GET') {
        const wholeBodies: Record<string, unknown> = {
          [`nested ${1100} deep`]: nested(1100),
          [`nested ${MAX_JSON_DEPTH + 1} deep`]: nested(MAX_JSON_DEPTH + 1),
          'empty object': {},
          'a list': [1, 'two', null],
          'a string': 'text',
          'a number': 12,
          null: null,
        };
        for (const [name, value] of Object.entries(wholeBodies))
          probes.push({
            label: `${base} body: ${name}`,
            options: request(goodPath(), goodQuery, JSON.stringify(value), {
              headers: { 'content-type': 'application/json' },
            }),
          });
        probes.push({
          label: `${base} body: malformed JSON`,
          options: request(goodPath(), goodQuery, '{"a": [1, 2', { headers: { 'content-type': 'application/json' } }),
        });
        if (goodBody !== undefined)
          for (const at of places(goodBody).slice(0, 40))
            for (const [name, value] of Object.entries(HOSTILE_VALUES))
              probes.push({
                label: `${base} body ${at.join('.')}: ${name}`,
                options: request(goodPath(), goodQuery, replaced(goodBody, at, value)),
              });
        // Extra fields a loose contract passes on to the service: NUL, long and deep values.
        if (goodBody && typeof goodBody === 'object' && !Array.isArray(goodBody))
          for (const [name, value] of Object.entries(HOSTILE_VALUES))
            probes.push({
              label: `${base} body extra field: ${name}`,
              options: request(goodPath(), goodQuery, {
                ...goodBody,
                type: 'TractionUnit',
                extra: value,
                description: value,
              }),
            });
      }
      if (multipart) {
        const boundary = 'probe-boundary';
        const multipartBodies: Record<string, string> = {
          'no closing boundary': `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.xlsx"\r\n\r\nPK`,
          garbage: 'not multipart at all',
          'no parts': `--${boundary}--\r\n`,
          'a field but no file': `--${boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--${boundary}--\r\n`,
          'a file that is not a workbook': `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\nhello\r\n--${boundary}--\r\n`,
        };
        for (const [name, payload] of Object.entries(multipartBodies))
          probes.push({
            label: `${base} multipart: ${name}`,
            options: request(goodPath(), goodQuery, payload, {
              headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
            }),
          });
        probes.push({
          label: `${base} multipart: no boundary`,
          options: request(goodPath(), goodQuery, 'x', { headers: { 'content-type': 'multipart/form-data' } }),
        });
      }
      for (const probe of probes) await send(kind, probe);
    }
    expect(failures).toEqual([]);
    // The probe must really have probed: thousands of requests, not a handful.
    expect(sent).toBeGreaterThan(1000);
  }, 600_000);

  it('after all that, the server and its database still answer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
  });
});
