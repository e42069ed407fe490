import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../domain/sql.js';

export interface OrganisationLink {
  uuid: string;
  name: string;
  organisationTypes: string[];
  exchangeAdminRef: string | null;
}

/** The organisations a user belongs to in a tenant, with their latest segment's type and exchange admin. */
export async function organisationsOfUser(ex: Executor, tenant: string, username: string): Promise<OrganisationLink[]> {
  return rows<OrganisationLink>(
    ex,
    sql`SELECT DISTINCT ON (s.entity_uuid) s.entity_uuid AS uuid, s.name,
               coalesce(ARRAY(SELECT jsonb_array_elements_text(s.attributes -> 'organisationTypes')), '{}') AS "organisationTypes",
               s.attributes ->> 'exchangeAdminRef' AS "exchangeAdminRef"
        FROM user_organisation uo
        JOIN entity_segment s ON s.entity_uuid = uo.organisation_uuid AND s.superseded_at IS NULL
        WHERE uo.tenant = ${tenant}::uuid AND lower(uo.username) = lower(${username}) AND s.tenant = ${tenant}::uuid
        ORDER BY s.entity_uuid, upper(s.valid) DESC`,
  );
}

/** Links a user to organisations of a tenant (idempotent). */
export async function linkUserToOrganisations(
  ex: Executor,
  tenant: string,
  username: string,
  organisationUuids: readonly string[],
): Promise<void> {
  if (organisationUuids.length === 0) return;
  await ex.execute(sql`INSERT INTO user_organisation (tenant, username, organisation_uuid)
    SELECT ${tenant}::uuid, ${username}, o FROM unnest(${sql.param([...organisationUuids])}::uuid[]) AS o
    ON CONFLICT DO NOTHING`);
}

/** The exchange admins a user acts under: its organisations' exchangeAdminRef, or the organisation itself when it is one. */
export function exchangeAdminsOf(organisations: readonly OrganisationLink[]): Set<string> {
  const out = new Set<string>();
  for (const o of organisations) {
    if (o.exchangeAdminRef) out.add(o.exchangeAdminRef);
    if (o.organisationTypes.includes('EXCHANGE_ADMIN')) out.add(o.uuid);
  }
  return out;
}
