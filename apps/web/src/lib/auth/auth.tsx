import {
  parseMarketFunctions,
  TOKEN_REFRESH_THRESHOLD_SECONDS,
  type ClientConfig,
  type MarketFunction,
} from '@railwatt/contracts';
import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { AuthProvider, hasAuthParams, useAuth } from 'react-oidc-context';

/*
 * Sign-in, the one web file of STYLE.md §8: the OpenID Connect provider (authorization code + PKCE,
 * public client `frontend`, silent renew by refresh token, no iframe) and the token getter the API
 * client uses. Sign-in is required at load; the app stays unrendered until the user is signed in.
 */

const RETURN_TO_KEY = 'railwatt.returnTo';
let manager: UserManager | null = null;

export function createUserManager(config: ClientConfig): UserManager {
  const origin = window.location.origin;
  manager = new UserManager({
    authority: config.authority,
    client_id: config.clientId,
    redirect_uri: `${origin}/`,
    post_logout_redirect_uri: `${origin}/`,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    automaticSilentRenew: true,
    userStore: new WebStorageStateStore({ store: window.sessionStorage }),
  });
  manager.events.addSilentRenewError((error) => console.error('session failed or expired: silent renew failed', error));
  manager.events.addAccessTokenExpired(() => console.error('session failed or expired: access token expired'));
  return manager;
}

/** The bearer token for API calls (null before sign-in). */
export async function getAccessToken(): Promise<string | null> {
  const user = await manager?.getUser();
  return user?.access_token ?? null;
}

/**
 * Refreshes the token before an area switch (calls.md §7) when it expires within the refresh threshold
 * (3600 s, product.md §9), by refresh token. Rejects when the refresh fails.
 */
export async function refreshToken(): Promise<void> {
  if (!manager) return;
  const user = await manager.getUser();
  if (user && (user.expires_in ?? 0) > TOKEN_REFRESH_THRESHOLD_SECONDS) return;
  const renewed = await manager.signinSilent();
  if (!renewed) throw new Error('silent sign-in returned no user');
}

/** Returns the user to the route they first asked for and strips code and state from the URL. */
function onSigninCallback(user: User | undefined): void {
  const fromState = (user?.state as { returnTo?: string } | undefined)?.returnTo;
  const target = fromState ?? window.sessionStorage.getItem(RETURN_TO_KEY) ?? '/';
  window.sessionStorage.removeItem(RETURN_TO_KEY);
  window.history.replaceState({}, document.title, target.startsWith('/') ? target : '/');
}

function SignInGate({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const started = useRef(false);

  useEffect(() => {
    if (auth.isLoading || auth.isAuthenticated || auth.activeNavigator || auth.error || started.current) return;
    if (hasAuthParams()) return;
    started.current = true;
    const returnTo = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    window.sessionStorage.setItem(RETURN_TO_KEY, returnTo);
    void auth.signinRedirect({ state: { returnTo } });
  }, [auth]);

  useEffect(() => {
    if (!auth.error) return;
    if (auth.error.source === 'signinRedirect') console.error('identity provider not ready', auth.error);
    else if (auth.error.source === 'renewSilent') console.error('session failed or expired', auth.error);
    else console.error('failed to login', auth.error);
  }, [auth.error]);

  // A failed sign-in leaves the app unrendered (calls.md §8).
  if (!auth.isAuthenticated) return null;
  return <>{children}</>;
}

export function AuthRoot({ userManager, children }: { userManager: UserManager; children: ReactNode }) {
  return (
    <AuthProvider userManager={userManager} onSigninCallback={onSigninCallback}>
      <SignInGate>{children}</SignInGate>
    </AuthProvider>
  );
}

function decodeClaims(jwt: string | undefined): Record<string, unknown> {
  const payload = jwt?.split('.')[1];
  if (!payload) return {};
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(json, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export interface AppAuth {
  isAuthenticated: boolean;
  username: string;
  /** given_name + family_name (else name, else username). */
  displayName: string;
  /** Every market function of the user, from the access token's market_functions claim. */
  functions: MarketFunction[];
  signOut(): void;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The signed-in user as the shell needs it. Tests mock this hook. */
export function useAppAuth(): AppAuth {
  const auth = useAuth();
  const user = auth.user;
  return useMemo(() => {
    const claims = { ...user?.profile, ...decodeClaims(user?.access_token) };
    const fullName = [str(claims.given_name), str(claims.family_name)].filter(Boolean).join(' ');
    return {
      isAuthenticated: auth.isAuthenticated,
      username: str(claims.preferred_username),
      displayName: fullName || str(claims.name) || str(claims.preferred_username),
      functions: parseMarketFunctions(claims.market_functions),
      signOut: () => void auth.signoutRedirect(),
    };
  }, [user, auth]);
}
