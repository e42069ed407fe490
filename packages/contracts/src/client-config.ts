import { z } from 'zod';

/** What the web app learns from GET /config.json at load: where the API and the identity provider are. */
export const clientConfigSchema = z.object({
  apiBase: z.string(),
  authority: z.string(),
  clientId: z.string(),
  /** true when the embedded provider runs; false for Keycloak. */
  embeddedIdentityProvider: z.boolean(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

/** The signed-in user as the API sees them (GET /api/me). */
export const meSchema = z.object({
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  displayName: z.string(),
  marketFunctions: z.array(z.object({ role: z.string(), areaId: z.string().nullable() })),
});
export type Me = z.infer<typeof meSchema>;
