import { sftpIntegrationCalls as calls } from '@railwatt/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import type { AllowedHosts } from '../../modules/interface/allowed-hosts.js';
import { exportInterfaceConfigurations } from '../../modules/interface/export.js';
import {
  createInterfaceRoute,
  enableDisableRoutes,
  filterInterfaceRoutes,
  getInterfaceRoute,
  interfaceRouteHistory,
  interfaceRouteIds,
  interfaceTypes,
  testInterfaceConnection,
  updateInterfaceRoute,
  type InterfaceContext,
} from '../../modules/interface/service.js';
import { route } from '../register-call.js';

export interface SftpIntegrationRoutesOptions {
  database: Database;
  /** config.interfaceCredentialsKey (INTERFACE_CREDENTIALS_KEY), undefined for the stored key. */
  credentialsKey: Buffer | undefined;
  /** config.interfaceAllowedHosts (INTERFACE_ALLOWED_HOSTS), undefined for any host. */
  allowedHosts: AllowedHosts | undefined;
}

/**
 * calls.md §7 "/sftpintegration/interface-configuration" (declared in contracts
 * calls/sftp-integration.ts), and the route export /excel/sftp/integrationconfigurations/download:
 * registered here beside the calls it exports rather than in routes/excel, so the interface noun
 * has one route file.
 */
export const sftpIntegrationRoutes: FastifyPluginAsync<SftpIntegrationRoutesOptions> = async (app, options) => {
  const ctxOf = (request: FastifyRequest): InterfaceContext => ({
    db: request.ctx.db,
    username: request.auth.username,
    credentialsKey: options.credentialsKey,
    allowedHosts: options.allowedHosts,
  });

  route(app, calls.createRoute, async (request) => createInterfaceRoute(ctxOf(request), request.body));
  route(app, calls.updateRoute, async (request) => updateInterfaceRoute(ctxOf(request), request.body));
  route(app, calls.routeIds, async (request) => interfaceRouteIds(ctxOf(request)));
  route(app, calls.interfaceTypes, async () => interfaceTypes());
  route(app, calls.routeByRouteId, async (request) => getInterfaceRoute(ctxOf(request), request.query.routeId));
  route(app, calls.filteredRoutes, async (request) => filterInterfaceRoutes(ctxOf(request), request.query));
  route(app, calls.enableDisable, async (request) => enableDisableRoutes(ctxOf(request), request.body));
  route(app, calls.routeHistory, async (request) => interfaceRouteHistory(ctxOf(request), request.query.routeId));
  route(app, calls.testConnection, async (request) => testInterfaceConnection(ctxOf(request), request.body));
  route(app, calls.exportConfigurations, async (request, reply) => {
    const file = await exportInterfaceConfigurations(
      { ...ctxOf(request), tenant: request.tenant.uuid, timeZone: request.tenant.timeZone },
      request.body,
    );
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.bytes);
  });
};
