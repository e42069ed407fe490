import {
  routerPath,
  type CallBody,
  type CallDeclaration,
  type CallParams,
  type CallQuery,
  type CallReply,
} from '@railwatt/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteHandlerMethod } from 'fastify';

/** A request as the call's handler sees it: params, query and body parsed by the declaration's schemas. */
export type CallRequest<C extends CallDeclaration> = Omit<FastifyRequest, 'params' | 'query' | 'body'> & {
  params: CallParams<C>;
  query: CallQuery<C>;
  body: CallBody<C>;
};

/** A JSON call answers its response schema's input; a download answers through `reply` (a file). */
export type CallHandler<C extends CallDeclaration> = (
  request: CallRequest<C>,
  reply: FastifyReply,
) => Promise<C['download'] extends true ? FastifyReply : CallReply<C>>;

/** The API prefix every declared path is served under (calls.md writes `/domain/fleet`, served `/api/domain/fleet`). */
export const API_PREFIX = '/api';

/**
 * Registers the route of a declared call (packages/contracts/src/calls): method, url, the zod schemas
 * (validated and serialised by fastify-type-provider-zod, listed at /api/docs) and `config.access`
 * from its named policy, which the access hook (plugins/access.ts) enforces. Route plugins are
 * registered under the `/api` prefix; the path is the declaration's, so nothing is written twice.
 */
export function route<C extends CallDeclaration>(app: FastifyInstance, call: C, handler: CallHandler<C>): void {
  const schema: FastifySchema & { tags: string[]; summary?: string; consumes?: string[] } = {
    tags: [call.path.split('/')[1] ?? 'api'],
  };
  if (call.summary) schema.summary = call.summary;
  if (call.params) schema.params = call.params;
  if (call.query) schema.querystring = call.query;
  if (call.body) schema.body = call.body;
  if (call.response) schema.response = { 200: call.response };
  if (call.upload) schema.consumes = ['multipart/form-data'];
  app.route({
    method: call.method,
    url: routerPath(call.path),
    schema,
    config: { access: call.access },
    // One cast, here: the schemas above give the request exactly the CallRequest<C> shape.
    handler: handler as unknown as RouteHandlerMethod,
  });
}
