import { sql, type SQL } from 'drizzle-orm';
import type { ReadContext } from '../../context.js';
import { ownDataIsWholeArea } from '../domain/policy.js';
import type { Actor } from '../domain/service.js';
import { organisationsOfUser } from './repository.js';

/**
 * Which organisations' figures and files an actor may see in the request's area (issue 17 item 3):
 * the one answer every service that returns per-organisation data asks (settlement reads, settled
 * consumption, the data log's organisation files, completeness, CEBD delivery, parameters per
 * organisation, procedure results limited to an organisation).
 *
 * The area-wide roles (policy.ownDataIsWholeArea: administrator, area responsibles, settlement
 * operators and their audit twins) see every organisation: null. Every other role (consumer,
 * vehicle keeper, cp-admin, exchange operator, train-run data provider) sees the organisations it
 * belongs to in the area (user_organisation), which may be none: a consumer linked to no
 * organisation sees nothing of any organisation.
 */
export type VisibleOrganisations = readonly string[] | null;

export async function visibleOrganisations(ctx: ReadContext & { actor: Actor }): Promise<VisibleOrganisations> {
  if (ownDataIsWholeArea(ctx.actor)) return null;
  return (await organisationsOfUser(ctx.db, ctx.tenant.uuid, ctx.actor.username)).map((o) => o.uuid);
}

/** `column` (a uuid) is one of the visible organisations; always true for null (every organisation). */
export const organisationFilter = (column: SQL, visible: VisibleOrganisations): SQL =>
  visible === null ? sql`true` : sql`${column} = ANY(${sql.param([...visible])}::uuid[])`;

/** Whether one organisation is visible. */
export const seesOrganisation = (visible: VisibleOrganisations, organisation: string): boolean =>
  visible === null || visible.includes(organisation);
