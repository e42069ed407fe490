import { clientConfigSchema, type ClientConfig } from '@railwatt/contracts';

let current: ClientConfig | null = null;

/** GET /config.json: where the API and the identity provider are (the server writes it). */
export async function loadClientConfig(fetchImpl: typeof fetch = fetch): Promise<ClientConfig> {
  const response = await fetchImpl('/config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`config.json answered ${response.status}`);
  current = clientConfigSchema.parse(await response.json());
  return current;
}

export const apiBase = (): string => current?.apiBase ?? '/api';

/** For tests and for start-up. */
export function setClientConfig(config: ClientConfig): void {
  current = config;
}
