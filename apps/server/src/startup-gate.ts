import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long a client is asked to wait before it asks again while the app starts. */
export const STARTING_RETRY_AFTER_SECONDS = 5;

/** What the app answers with once it is ready: Fastify's `app.routing`, the handler its own server would call. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

const STARTING_MESSAGE = 'Railwatt is starting (database, migrations and demo data); try again in a few seconds';

/**
 * The page a browser gets while the app starts: it says so and reloads itself. No script, so the
 * strict content security policy of the app proper is not needed to keep it harmless.
 */
const STARTING_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="${STARTING_RETRY_AFTER_SECONDS}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Railwatt is starting</title>
</head>
<body style="font-family: system-ui, sans-serif; margin: 3rem; color: #1a1b1e">
<main>
<h1>Railwatt is starting</h1>
<p>The database is being prepared and the demo data loaded. This page reloads by itself every ${STARTING_RETRY_AFTER_SECONDS} seconds and opens the application once it is ready.</p>
</main>
</body>
</html>
`;

/** A request a person's browser makes for a page (not the API, not a script, not a health probe). */
function wantsPage(request: IncomingMessage): boolean {
  const path = (request.url ?? '/').split('?')[0]!;
  if (path.startsWith('/api/') || path === '/api' || path === '/health') return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * The answer while the app is not ready: 503 with Retry-After to everyone, a page that reloads itself
 * to a browser and the error envelope (packages/contracts errorEnvelopeSchema) to the API and the rest.
 */
export function answerStarting(request: IncomingMessage, response: ServerResponse): void {
  response.statusCode = 503;
  response.setHeader('retry-after', String(STARTING_RETRY_AFTER_SECONDS));
  response.setHeader('cache-control', 'no-store');
  if (wantsPage(request)) {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(request.method === 'HEAD' ? undefined : STARTING_PAGE);
    return;
  }
  response.setHeader('content-type', 'application/json; charset=utf-8');
  const envelope = {
    timestamp: new Date().toISOString(),
    status: 503,
    error: 'Service Unavailable',
    message: STARTING_MESSAGE,
    path: (request.url ?? '/').split('?')[0],
  };
  response.end(request.method === 'HEAD' ? undefined : JSON.stringify(envelope));
}

export interface StartupGate {
  /** The one listening socket of the process, from the first second of the start to its end. */
  readonly server: Server;
  listen(port: number, host: string): Promise<AddressInfo>;
  /**
   * From now on every request goes to the app; `like` is the server the app made and would have bound
   * (Fastify's), whose timeouts the gate takes over: no request timeout, so a long upload is not cut
   * at Node's default five minutes, and Fastify's keep-alive.
   */
  open(handler: RequestHandler, like?: Server): void;
  close(): Promise<void>;
}

/**
 * Issue 18 item 6: the process listens at once, before the database opens, migrations run and the
 * demo data is seeded (a minute on a fresh data directory on a busy machine), so a request in that
 * time gets an answer (503, Retry-After, a page that reloads itself) instead of a refused connection
 * or a wait. Once the app is ready the same server hands every request to the app's routing: there
 * is no moment between two servers in which the port is closed.
 */
export function createStartupGate(): StartupGate {
  let handler: RequestHandler | null = null;
  const server = createServer((request, response) => {
    if (handler) handler(request, response);
    else answerStarting(request, response);
  });
  return {
    server,
    async listen(port, host) {
      server.listen(port, host);
      await once(server, 'listening');
      return server.address() as AddressInfo;
    },
    open(next, like) {
      if (like) {
        server.requestTimeout = like.requestTimeout;
        server.headersTimeout = like.headersTimeout;
        server.keepAliveTimeout = like.keepAliveTimeout;
        server.maxRequestsPerSocket = like.maxRequestsPerSocket;
        server.timeout = like.timeout;
      }
      handler = next;
    },
    async close() {
      if (!server.listening) return;
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      server.closeIdleConnections();
      // A request still running after 10 s (a long download) does not hold the shutdown for ever.
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      force.unref();
      await closed.finally(() => clearTimeout(force));
    },
  };
}
