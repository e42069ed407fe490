import { useEffect, useRef, useState } from 'react';

/**
 * `key` at most once per `wait` ms, counting from the first render: a change within `wait` of the
 * last key taken is taken when the interval is over, and only the latest one (a month clicked through
 * quickly asks for the last month only). Unlike a throttle that starts idle, the key of the first
 * render counts, so the first change cannot follow the first lookup within the interval.
 */
export function useThrottledKey(key: string, wait: number): string {
  const [taken, setTaken] = useState(key);
  const takenAt = useRef<number | null>(null);
  useEffect(() => {
    takenAt.current ??= Date.now();
  }, []);
  useEffect(() => {
    if (key === taken) return undefined;
    const due = (takenAt.current ?? 0) + wait - Date.now();
    const take = () => {
      takenAt.current = Date.now();
      setTaken(key);
    };
    if (due <= 0) {
      take();
      return undefined;
    }
    const timer = setTimeout(take, due);
    return () => clearTimeout(timer);
  }, [key, taken, wait]);
  return taken;
}
