import { STATUS_CODES } from 'node:http';
import type { ErrorEnvelope, FieldError } from '@railwatt/contracts';
import { ERROR_CODES } from '@railwatt/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { mapDatabaseError } from '../db/constraints.js';
import { ApiError, errorIdOf, internalErrorText } from '../errors.js';

/** Builds the one error envelope of calls.md §8. */
export function envelope(
  request: FastifyRequest,
  status: number,
  body: Pick<ErrorEnvelope, 'code' | 'message' | 'errors' | 'detail'> = {},
): ErrorEnvelope {
  return {
    timestamp: new Date().toISOString(),
    status,
    error: STATUS_CODES[status] ?? 'Error',
    ...(body.code !== undefined ? { code: body.code } : {}),
    ...(body.message !== undefined ? { message: body.message } : {}),
    ...(body.errors !== undefined ? { errors: body.errors } : {}),
    ...(body.detail !== undefined ? { detail: body.detail } : {}),
    path: request.url.split('?')[0],
  };
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).type('application/json').send(envelope(request, 404));
}

/**
 * Database errors that are the client's doing become 400s (403 for a row-level security refusal),
 * chosen by the one constraint table in db/constraints.ts, so services need not pre-check what a
 * constraint already guarantees.
 */
export const mapPgError = mapDatabaseError;

function zodFieldErrors(
  validation: { instancePath: string; message?: string }[],
  context: string | undefined,
): FieldError[] {
  return validation.map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    return {
      code: 'invalid_input',
      field: path || context || undefined,
      message: issue.message ?? ERROR_CODES.invalid_input,
    };
  });
}

/** One error handler for the whole app: every failure leaves in the calls.md §8 envelope. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors = zodFieldErrors(error.validation, error.validationContext);
        return reply
          .code(400)
          .send(envelope(request, 400, { code: 'invalid_input', message: ERROR_CODES.invalid_input, errors }));
      }
      const apiError = error instanceof ApiError ? error : mapPgError(error);
      if (apiError) {
        const { status } = apiError;
        if (status === 401) return reply.code(401).send(envelope(request, 401));
        if (status === 403) {
          const message = apiError.message === 'Forbidden' ? undefined : apiError.message;
          return reply.code(403).send(envelope(request, 403, { message }));
        }
        return reply.code(status).send(
          envelope(request, status, {
            code: apiError.code,
            message: apiError.message,
            errors: apiError.errors,
            detail: apiError.detail,
          }),
        );
      }
      const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status >= 400 && status < 500) {
        // Fastify's own client errors (malformed JSON, unsupported media type, body too large ...).
        const code = status === 400 ? 'invalid_input' : undefined;
        return reply.code(status).send(envelope(request, status, { code, message: error.message }));
      }
      // No internals leave (a database error quotes its SQL): the answer names an id the user can
      // quote, and the log keeps the error under it.
      const errorId = errorIdOf(error);
      request.log.error({ err: error, reqId: request.id, errorId }, 'request failed');
      return reply.code(500).send(envelope(request, 500, { message: internalErrorText(errorId) }));
    });
  },
  { name: 'errors' },
);
