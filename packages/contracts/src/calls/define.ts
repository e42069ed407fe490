import { z } from 'zod';
import type { AccessPolicy } from './policies.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One call of calls.md, declared once (issue 6 item 3): the server registers its route from it
 * (apps/server/src/routes/register-call.ts), the web calls it through `api.call` (apps/web/src/lib/api),
 * and the access tests loop over every declaration. `access` is required: a call without a named
 * policy does not compile.
 */
export interface CallDeclaration {
  method: HttpMethod;
  /** As calls.md writes it ("/domain/{type}/id/{uuid}"), served under /api. */
  path: string;
  /** Who may call it: one of the named policies of policies.ts. */
  access: AccessPolicy;
  summary?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The JSON answer; absent for a file download (`download`). */
  response?: z.ZodType;
  /** The body is multipart/form-data (files); the answer is still JSON (`response`). */
  upload?: true;
  /** The answer is a file (blob), not JSON. */
  download?: true;
}

/** Declares a call, keeping its literal types (method, path, schemas) for the server and the web client. */
export const defineCall = <const C extends CallDeclaration>(call: C): C => call;

/**
 * A free-text path segment (entity type, organisation type, uuid-or-orgId): bounded, without control
 * characters. The router already answers 404 to a segment over 100 characters (maxParamLength).
 */
export const pathSegmentSchema = z
  .string()
  .min(1)
  .max(100)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  .regex(/^[^\u0000-\u001f/]+$/, 'Must not contain control characters');

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives (parsed by the declaration's schemas). */
export type CallParams<C extends CallDeclaration> = Out<C['params']>;
export type CallQuery<C extends CallDeclaration> = Out<C['query']>;
export type CallBody<C extends CallDeclaration> = Out<C['body']>;
/** What a handler returns (serialised through the response schema). */
export type CallReply<C extends CallDeclaration> = In<C['response']>;
/** What the web sends (before the server's defaults) and receives (parsed by the response schema). */
export type CallParamsInput<C extends CallDeclaration> = In<C['params']>;
export type CallQueryInput<C extends CallDeclaration> = In<C['query']>;
export type CallBodyInput<C extends CallDeclaration> = In<C['body']>;
export type CallAnswer<C extends CallDeclaration> = C['download'] extends true ? Blob : Out<C['response']>;

/** `/domain/{type}/id/{uuid}` -> `/domain/:type/id/:uuid` (the router's syntax). */
export const routerPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The names of a path's parameters, in order. */
export const pathParamNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** Fills a call's path with its parameters (each URI-encoded); a missing one is a programming error. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`Missing path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
}
