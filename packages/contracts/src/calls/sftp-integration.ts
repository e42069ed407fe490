import {
  INTERFACE_TYPES,
  interfaceRouteCreateSchema,
  interfaceRouteEnableSchema,
  interfaceExportRequestSchema,
  interfaceRouteHistoryEntrySchema,
  interfaceRoutePageQuerySchema,
  interfaceRouteSchema,
  interfaceRouteTestResultSchema,
  interfaceRouteTestSchema,
  interfaceRouteUpdateSchema,
  interfaceTypeSchema,
  routeIdQuerySchema,
} from '../domain/interface-route.js';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from '../limits.js';
import { pageOf } from '../paging.js';
import { defineCall } from './define.js';
import { POLICIES } from './policies.js';

const BASE = '/sftpintegration/interface-configuration';

/**
 * calls.md §7 "Dead letter queues and interfaces": SFTP interface configuration, and its export of
 * calls.md §7 "Files". product.md §6: the erex-administrator alone (administratorOnly). Routes are
 * system-wide configuration; the area header only says where the administrator acts.
 */
export const sftpIntegrationCalls = {
  createRoute: defineCall({
    method: 'POST',
    path: `${BASE}/create-route`,
    access: POLICIES.administratorOnly,
    summary: 'Create an interface route (credentials stored encrypted, never answered)',
    body: interfaceRouteCreateSchema,
    response: interfaceRouteSchema,
  }),
  updateRoute: defineCall({
    method: 'POST',
    path: `${BASE}/update-route`,
    access: POLICIES.administratorOnly,
    summary: 'Update an interface route by routeId (without credentials the stored ones stay)',
    body: interfaceRouteUpdateSchema,
    response: interfaceRouteSchema,
  }),
  routeIds: defineCall({
    method: 'GET',
    path: `${BASE}/routeid`,
    access: POLICIES.administratorOnly,
    summary: 'The route ids of every interface route, sorted',
    response: list(text(TEXT_LIMITS.identifier), LIST_LIMITS.rows),
  }),
  interfaceTypes: defineCall({
    method: 'GET',
    path: `${BASE}/interface-types`,
    access: POLICIES.administratorOnly,
    summary: `The interface types a route may have (${INTERFACE_TYPES.join(', ')})`,
    response: list(interfaceTypeSchema, LIST_LIMITS.small),
  }),
  routeByRouteId: defineCall({
    method: 'GET',
    path: `${BASE}/route-by-routeid`,
    access: POLICIES.administratorOnly,
    summary: 'One interface route (404 when there is none with this routeId)',
    query: routeIdQuerySchema,
    response: interfaceRouteSchema,
  }),
  filteredRoutes: defineCall({
    method: 'GET',
    path: `${BASE}/filtered-routes`,
    access: POLICIES.administratorOnly,
    summary: 'Interface routes by interfaceType, direction, serverType, enabled and a search string (paged)',
    query: interfaceRoutePageQuerySchema,
    response: pageOf(interfaceRouteSchema),
  }),
  enableDisable: defineCall({
    method: 'POST',
    path: `${BASE}/enable-disable`,
    access: POLICIES.administratorOnly,
    summary: 'Enable or disable the selected routes (one history entry per changed route)',
    body: interfaceRouteEnableSchema,
    response: list(interfaceRouteSchema, LIST_LIMITS.selection),
  }),
  routeHistory: defineCall({
    method: 'GET',
    path: `${BASE}/route-history`,
    access: POLICIES.administratorOnly,
    summary: 'Every change of one route, newest first (comment, who, when; never credentials)',
    query: routeIdQuerySchema,
    response: list(interfaceRouteHistoryEntrySchema, LIST_LIMITS.rows),
  }),
  /**
   * Our addition (not in calls.md): connects to the route's SFTP server and lists its path, so an
   * administrator learns at once whether host, credentials and path are right. Never a 5xx: a
   * failure is an answer with ok false and the reason.
   */
  testConnection: defineCall({
    method: 'POST',
    path: `${BASE}/test-connection`,
    access: POLICIES.administratorOnly,
    summary: 'Our addition: connect to a saved or unsaved route and list its path (10 s timeout)',
    body: interfaceRouteTestSchema,
    response: interfaceRouteTestResultSchema,
  }),
  /** calls.md §7 "Files": InterfaceConfigurations.xlsx of the routes the filter selects (all when empty). */
  exportConfigurations: defineCall({
    method: 'POST',
    path: '/excel/sftp/integrationconfigurations/download',
    access: POLICIES.administratorOnly,
    summary: 'Export interface routes as InterfaceConfigurations.xlsx (never credentials)',
    body: interfaceExportRequestSchema,
    download: true,
  }),
};
