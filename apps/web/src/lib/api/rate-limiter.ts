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
  now: () => number = Date.now,
): RateLimiter {
  const starts: number[] = [];
  const queue: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  function pump(): void {
    const t = now();
    while (starts.length > 0 && starts[0]! <= t - limit.perMs) starts.shift();
    while (queue.length > 0 && starts.length < limit.requests) {
      starts.push(t);
      queue.shift()!.start();
    }
    if (queue.length > 0 && timer === null) {
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
