// @vitest-environment node
import { API_RATE_LIMIT } from '@railwatt/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CancelledError } from '../errors';
import { createRateLimiter } from './rate-limiter';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('request limiter (at most 5 requests per 1000 ms)', () => {
  it('starts five at once and the sixth only when the first leaves the window, in order', async () => {
    expect(API_RATE_LIMIT).toEqual({ requests: 5, perMs: 1000 });
    const limiter = createRateLimiter(API_RATE_LIMIT);
    const started: number[] = [];
    for (let i = 0; i < 12; i += 1) void limiter.acquire().then(() => started.push(i));
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toHaveLength(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('never lets more than five start in any 1000 ms window', async () => {
    const limiter = createRateLimiter(API_RATE_LIMIT);
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) void limiter.acquire().then(() => times.push(Date.now()));
    await vi.advanceTimersByTimeAsync(300);
    for (let i = 0; i < 8; i += 1) void limiter.acquire().then(() => times.push(Date.now()));
    await vi.advanceTimersByTimeAsync(3000);
    expect(times).toHaveLength(13);
    for (let i = 5; i < times.length; i += 1) expect(times[i]! - times[i - 5]!).toBeGreaterThanOrEqual(1000);
  });

  it('drops a waiter whose signal aborts, with a CancelledError', async () => {
    const limiter = createRateLimiter({ requests: 1, perMs: 1000 });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    expect(limiter.pending()).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(CancelledError);
    expect(limiter.pending()).toBe(0);
  });

  it('keeps going when the clock is replaced: a fake clock that ran ahead, then the real one', async () => {
    // What a test file did to the app's one limiter before this test existed: the window filled on a
    // fake clock set ahead, a waiter's wake-up set on the fake timers, then the real timers came
    // back. The next requests waited for the fake wake-up or for the real clock to catch up, for ever.
    const limiter = createRateLimiter(API_RATE_LIMIT);
    vi.setSystemTime(Date.now() + 60_000);
    for (let i = 0; i < 6; i += 1) void limiter.acquire();
    vi.useRealTimers();
    const started = Date.now();
    await limiter.acquire();
    // Well under the window (1000 ms) and the fake clock's minute: the failure was waiting for ever.
    // Not tighter: a loaded CI machine once took 575 ms here.
    expect(Date.now() - started).toBeLessThan(900);
    expect(limiter.pending()).toBe(0);
  });
});
