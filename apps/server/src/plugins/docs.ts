import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { VERSION_STRING } from '@railwatt/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { setDefaultAccess } from './access.js';

export const DOCS_PREFIX = '/api/docs';

/** OpenAPI from the route contracts (fastify-type-provider-zod), browsable at /api/docs. */
export const docsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: { title: 'Railwatt API', version: VERSION_STRING },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
        security: [{ bearer: [] }],
      },
      transform: jsonSchemaTransform,
    });
    // swagger-ui's own routes cannot carry config.access; the docs are public (the calls behind them are not).
    await app.register(async (scope) => {
      setDefaultAccess(scope, { public: true });
      await scope.register(swaggerUi, {
        routePrefix: DOCS_PREFIX,
        // swagger-ui sets its own CSP with the hashes of its inline code.
        staticCSP: true,
        transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
      });
    });
  },
  { name: 'docs', dependencies: ['access'] },
);
