import {
  ORGANISATION_TYPES,
  type MinimalEntity,
  type OrganisationType,
  type VersionedEntity,
} from '@railwatt/contracts';
import { sql } from 'drizzle-orm';
import { ApiError } from '../../errors.js';
import { listSegments, type TimeWindow } from '../domain/repository.js';
import { latestOf, listEntities, toEntity, toMinimal } from '../domain/service.js';
import type { Executor } from '../domain/sql.js';

/** Path keys of /organisations/{type}/all: 'exchangeadmin' -> EXCHANGE_ADMIN, 'vehiclekeeper' -> VEHICLE_KEEPER. */
export function organisationTypeOf(key: string): OrganisationType {
  const found = ORGANISATION_TYPES.find(
    (t) => t.replace(/_/g, '').toLowerCase() === key.replace(/[\s_-]/g, '').toLowerCase(),
  );
  if (!found) throw ApiError.badRequest('invalid_input', `Unknown organisation type ${key}`);
  return found;
}

/** GET /domain/organisations and /organisation/all. */
export const listOrganisations = (
  ex: Executor,
  tenant: string,
  params: { window: TimeWindow; includeInactive: boolean },
) => listEntities(ex, tenant, 'organisation', params);

/** GET /domain/organisations/{type}/all (exchangeadmin, dcsadmin, or any organisation type). */
export async function organisationsOfType(
  ex: Executor,
  tenant: string,
  type: OrganisationType,
  window: TimeWindow,
): Promise<VersionedEntity[]> {
  const extra = sql`AND m.attributes -> 'organisationTypes' ? ${type}`;
  const segments = await listSegments(ex, tenant, ['organisation'], { window, includeInactive: false }, extra);
  const groups = new Map<string, typeof segments>();
  for (const s of segments) groups.set(s.entityUuid, [...(groups.get(s.entityUuid) ?? []), s]);
  return [...groups.values()]
    .map((g) => toEntity('organisation', g, latestOf(g, window)!))
    .filter((e) => Array.isArray(e.organisationTypes) && (e.organisationTypes as string[]).includes(type))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** GET /domain/organisations/branch/all: branches with the organisation they belong to. */
export async function listBranches(ex: Executor, tenant: string, window: TimeWindow) {
  const branches = await organisationsOfType(ex, tenant, 'BRANCH', window);
  return branches.map((b) => ({
    uuid: b.uuid,
    name: b.name,
    organisationUuid: typeof b.parentOrganisationRef === 'string' ? b.parentOrganisationRef : null,
  }));
}

/** GET /domain/organisations/filteredOrganisations: minimal organisations by types and a name search. */
export async function filteredOrganisations(
  ex: Executor,
  tenant: string,
  params: { organisationTypes: readonly OrganisationType[]; searchString: string; window: TimeWindow },
): Promise<MinimalEntity[]> {
  const segments = await listSegments(ex, tenant, ['organisation'], { window: params.window, includeInactive: false });
  const groups = new Map<string, typeof segments>();
  for (const s of segments) groups.set(s.entityUuid, [...(groups.get(s.entityUuid) ?? []), s]);
  const needle = params.searchString.toLowerCase();
  return [...groups.values()]
    .map((g) => latestOf(g, params.window)!)
    .filter((s) => s.name.toLowerCase().includes(needle))
    .filter((s) => {
      if (params.organisationTypes.length === 0) return true;
      const types = Array.isArray(s.attributes.organisationTypes) ? (s.attributes.organisationTypes as string[]) : [];
      return params.organisationTypes.some((t) => types.includes(t));
    })
    .map((s) => toMinimal('organisation', s))
    .sort((a, b) => a.name.localeCompare(b.name));
}
