/**
 * Throttles password guessing on the embedded provider's login page, per username and per client
 * address. In memory, per node: a restart forgetting a few minutes of failures is acceptable, and
 * with several nodes behind a balancer (ARCHITECTURE.md "Several nodes") each counts its own, so a
 * guesser spread over n nodes gets up to n times the attempts before waiting. Installations with
 * several nodes sign in through Keycloak (README), whose brute-force detection holds across them. Nobody is locked out for ever: failures older than the window are forgotten, and a
 * success clears the username's count.
 */
export interface LoginThrottleOptions {
  /** Failures of one username within the window before it waits. */
  maxFailuresPerUser?: number;
  /** Failures from one address within the window (any usernames) before it waits. */
  maxFailuresPerAddress?: number;
  /** How long a failure counts. */
  windowMs?: number;
  /** The first wait; each further failure doubles it, up to the window. */
  baseDelayMs?: number;
  now?: () => number;
}

export const LOGIN_THROTTLE_DEFAULTS = {
  maxFailuresPerUser: 5,
  maxFailuresPerAddress: 20,
  windowMs: 15 * 60 * 1000,
  baseDelayMs: 60 * 1000,
} as const;

/** The login page's message while an attempt has to wait. */
export function tooManyAttemptsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly options: Required<Omit<LoginThrottleOptions, 'now'>>;
  private readonly now: () => number;

  constructor(options: LoginThrottleOptions = {}) {
    // Date.now looked up at each call, so a test can move the clock.
    const { now = () => Date.now(), ...limits } = options;
    this.options = { ...LOGIN_THROTTLE_DEFAULTS, ...limits };
    this.now = now;
  }

  /** Milliseconds this attempt must wait (0: go ahead and check the password). */
  retryAfter(username: string, address: string): number {
    return Math.max(
      this.waitFor(userKey(username), this.options.maxFailuresPerUser),
      this.waitFor(addressKey(address), this.options.maxFailuresPerAddress),
    );
  }

  recordFailure(username: string, address: string): void {
    const now = this.now();
    if (this.failures.size > 10_000) this.forgetExpired(now);
    for (const key of [userKey(username), addressKey(address)]) {
      this.failures.set(key, [...this.recent(key, now), now]);
    }
  }

  /** A correct password: the username starts afresh (the address keeps its count, it may be guessing many names). */
  recordSuccess(username: string): void {
    this.failures.delete(userKey(username));
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => now - at < this.options.windowMs);
  }

  /** After `limit` failures: base delay, doubled per further failure, capped at the window, from the last failure. */
  private waitFor(key: string, limit: number): number {
    const now = this.now();
    const recent = this.recent(key, now);
    if (recent.length < limit) return 0;
    const delay = Math.min(this.options.baseDelayMs * 2 ** (recent.length - limit), this.options.windowMs);
    return Math.max(0, (recent.at(-1) ?? now) + delay - now);
  }

  private forgetExpired(now: number): void {
    for (const key of [...this.failures.keys()]) {
      if (!this.recent(key, now).length) this.failures.delete(key);
    }
  }
}

const userKey = (username: string) => `user:${username.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;
