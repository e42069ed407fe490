import { MAX_JSON_BODY_BYTES, MAX_JSON_DEPTH, jsonDepthExceeds } from '@railwatt/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';

/**
 * The one JSON body parser: at most MAX_JSON_BODY_BYTES, and nested at most MAX_JSON_DEPTH deep,
 * checked by a scan of the text before JSON.parse and zod see it. A body nested a thousand levels
 * deep is refused here with 400 invalid_input and never reaches a service or the database (deep
 * jsonb could exhaust the embedded database's stack). Multipart uploads have their own parser and
 * limits (routes/excel).
 */
export const jsonBodyPlugin = fp(
  async (app: FastifyInstance) => {
    // Fastify's own parser (secure-json-parse): __proto__ and constructor.prototype keys are refused.
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: MAX_JSON_BODY_BYTES },
      (request, body, done) => {
        // parseAs 'string' hands over a string; the type covers the buffer variant too.
        const json = String(body);
        if (jsonDepthExceeds(json, MAX_JSON_DEPTH)) {
          done(
            ApiError.badRequestMany([
              {
                code: 'invalid_input',
                field: 'body',
                message: `The body may nest objects and lists at most ${MAX_JSON_DEPTH} levels deep`,
              },
            ]),
            undefined,
          );
          return;
        }
        parse(request, json, done);
      },
    );
  },
  { name: 'json-body' },
);
