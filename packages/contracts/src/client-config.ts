import { z } from 'zod';
import { LIST_LIMITS, TEXT_LIMITS, list, text } from './limits.js';

/** What the web app learns from GET /config.json at load: where the API and the identity provider are. */
export const clientConfigSchema = z.object({
  apiBase: text(TEXT_LIMITS.address),
  authority: text(TEXT_LIMITS.address),
  clientId: text(TEXT_LIMITS.identifier),
  /** true when the embedded provider runs; false for Keycloak. */
  embeddedIdentityProvider: z.boolean(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** The signed-in user as the API sees them (GET /api/me). */
export const meSchema = z.object({
  username: text(TEXT_LIMITS.identifier),
  firstName: text(TEXT_LIMITS.name).nullable(),
  lastName: text(TEXT_LIMITS.name).nullable(),
  displayName: text(TEXT_LIMITS.name),
  marketFunctions: list(
    z.object({ role: text(TEXT_LIMITS.identifier), areaId: text(TEXT_LIMITS.identifier).nullable() }),
    LIST_LIMITS.refs,
  ),
});
export type Me = z.infer<typeof meSchema>;
