import { CancelledError } from '../errors';

export interface RateLimiter {
  /** Resolves when the caller may start its request; rejects with CancelledError if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Callers waiting for a slot. */
  pending(): number;
}

interface Waiter {
  start: () => void;
}

/**
 * A sliding-window limiter with a FIFO queue: at most `requests` starts in any `perMs` window
 * (calls.md §7: at most 5 requests per second). Waiters start in the order they asked.
 */
export function createRateLimiter(
  limit: { requests: number; perMs: number },
  // A monotonic clock, read through the global each time: the wall clock may be set back (or, in a
  // test, faked and frozen), and a clock captured once stays the one it was.
  now: () => number = () => performance.now(),
): RateLimiter {
  const starts: number[] = [];
  const queue: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  function pump(): void {
    const t = now();
    // A start later than now means the clock went back (a system clock set back; in tests, a fake
    // clock that ran ahead and was put back): forget it rather than wait for the clock to catch up.
    while (starts.length > 0 && (starts[0]! <= t - limit.perMs || starts[0]! > t)) starts.shift();
    while (queue.length > 0 && starts.length < limit.requests) {
      starts.push(t);
      queue.shift()!.start();
    }
    // The wake-up is set anew on every pump: a timer of a clock that has since been replaced (a fake
    // timer when the real ones are back) would never fire and leave the queue stuck for good.
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (queue.length > 0) {
      timer = setTimeout(
        () => {
          timer = null;
          pump();
        },
        Math.max(0, starts[0]! + limit.perMs - t),
      );
    }
  }

  function acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new CancelledError());
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const i = queue.indexOf(waiter);
        if (i >= 0) queue.splice(i, 1);
        reject(new CancelledError());
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      pump();
    });
  }

  return { acquire, pending: () => queue.length };
}
