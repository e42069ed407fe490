import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendNotFound } from './errors.js';

/** Paths the web app never owns: these answer 404 in the error envelope instead of index.html. */
const SERVER_PREFIXES = ['/api', '/auth', '/health', '/config.json'];

const ownedByServer = (path: string): boolean =>
  SERVER_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

export interface WebPluginOptions {
  webDist: string;
}

/**
 * Serves the built web app. Hashed assets (Vite's /assets/*) are immutable for a year; index.html
 * is never cached, so a deploy is picked up at the next load. Any other GET that is not a file is
 * a client-side route and gets index.html.
 */
export const webPlugin = fp<WebPluginOptions>(
  async (app, { webDist }) => {
    // @fastify/static serves whatever is in the folder at request time, so it is registered even when
    // the build is missing: a `npm run build` while the server runs is picked up without a restart.
    const built = () => existsSync(join(webDist, 'index.html'));
    await app.register(fastifyStatic, {
      root: webDist,
      index: 'index.html',
      cacheControl: false,
      setHeaders: (res, path) => {
        const hashed = /[/\\]assets[/\\]/.test(path);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });

    const sendIndex = (reply: FastifyReply) =>
      built()
        ? reply.header('cache-control', 'no-cache').sendFile('index.html')
        : reply
            .code(503)
            .type('text/plain; charset=utf-8')
            .send(`The web app is not built (no ${webDist}/index.html). Run \`npm run build\`.`);

    app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      if ((request.method !== 'GET' && request.method !== 'HEAD') || ownedByServer(path)) {
        return sendNotFound(request, reply);
      }
      return sendIndex(reply);
    });
  },
  { name: 'web' },
);
