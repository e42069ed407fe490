import { Piscina } from 'piscina';
import type { ReadWorkbookResult, ReadWorkbookTask } from './read-domain-workbook.js';

/**
 * The worker threads that read uploaded workbooks (read-domain-workbook.ts). The worker runs the
 * TypeScript source through tsx, as the server itself does (`node --import tsx`), in dev, tests and
 * production alike. One thread by default: the machine's other cores serve the database and the
 * requests; a second import waits in the queue rather than slowing every request.
 */
export interface WorkbookPool {
  read(task: ReadWorkbookTask): Promise<ReadWorkbookResult>;
  close(): Promise<void>;
}

export function createWorkbookPool(options: { maxThreads?: number } = {}): WorkbookPool {
  const pool = new Piscina({
    filename: new URL('./read-domain-workbook.ts', import.meta.url).href,
    execArgv: ['--import', 'tsx'],
    minThreads: 0,
    maxThreads: options.maxThreads ?? 1,
    // An idle thread is given back after a minute; the next import pays ~1 s to start one.
    idleTimeout: 60_000,
  });
  return {
    read: (task) => pool.run(task) as Promise<ReadWorkbookResult>,
    close: () => pool.destroy(),
  };
}
