import { describe, expect, it } from 'vitest';
import { LoginThrottle, tooManyAttemptsMessage } from './login-throttle.js';

const MINUTE = 60_000;

function throttleWithClock() {
  let now = 1_700_000_000_000;
  const throttle = new LoginThrottle({ now: () => now });
  return { throttle, advance: (ms: number) => (now += ms) };
}

describe('login throttle', () => {
  it('lets a username fail 5 times, then makes it wait a minute, doubling per further failure', () => {
    const { throttle, advance } = throttleWithClock();
    for (let i = 0; i < 5; i++) {
      expect(throttle.retryAfter('consumer', '10.0.0.1')).toBe(0);
      throttle.recordFailure('consumer', '10.0.0.1');
    }
    // Same user from another address, in other letter case: still the same user.
    expect(throttle.retryAfter(' Consumer', '10.0.0.2')).toBe(MINUTE);
    expect(throttle.retryAfter('someone-else', '10.0.0.2')).toBe(0);
    advance(MINUTE);
    expect(throttle.retryAfter('consumer', '10.0.0.1')).toBe(0);
    throttle.recordFailure('consumer', '10.0.0.1');
    expect(throttle.retryAfter('consumer', '10.0.0.1')).toBe(2 * MINUTE);
    advance(2 * MINUTE);
    throttle.recordFailure('consumer', '10.0.0.1');
    expect(throttle.retryAfter('consumer', '10.0.0.1')).toBe(4 * MINUTE);
  });

  it('never waits longer than the window, and forgets failures older than 15 minutes', () => {
    const { throttle, advance } = throttleWithClock();
    for (let i = 0; i < 12; i++) throttle.recordFailure('consumer', `10.0.0.${i}`);
    expect(throttle.retryAfter('consumer', '10.0.0.99')).toBe(15 * MINUTE);
    advance(15 * MINUTE);
    expect(throttle.retryAfter('consumer', '10.0.0.99')).toBe(0);
    // The old failures no longer count: the next one alone does not make the user wait.
    throttle.recordFailure('consumer', '10.0.0.99');
    expect(throttle.retryAfter('consumer', '10.0.0.99')).toBe(0);
  });

  it('limits one address to 20 failures over any usernames', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 20; i++) throttle.recordFailure(`guess-${i}`, '198.51.100.1');
    expect(throttle.retryAfter('consumer', '198.51.100.1')).toBe(MINUTE);
    expect(throttle.retryAfter('consumer', '198.51.100.2')).toBe(0);
  });

  it('clears a username after a correct password, but not the address', () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 4; i++) throttle.recordFailure('consumer', '10.0.0.1');
    throttle.recordSuccess('consumer');
    throttle.recordFailure('consumer', '10.0.0.1');
    expect(throttle.retryAfter('consumer', '10.0.0.1')).toBe(0);
  });

  it('tells the user how many minutes to wait', () => {
    expect(tooManyAttemptsMessage(30_000)).toBe('Too many sign-in attempts. Try again in 1 minute.');
    expect(tooManyAttemptsMessage(4 * MINUTE + 1)).toBe('Too many sign-in attempts. Try again in 5 minutes.');
  });
});
