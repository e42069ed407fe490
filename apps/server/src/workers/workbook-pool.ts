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

const WORKER_HEAP_MB = 768;

export function createWorkbookPool(options: { maxThreads?: number } = {}): WorkbookPool {
  const pool = new Piscina({
    filename: new URL('./read-domain-workbook.ts', import.meta.url).href,
    execArgv: ['--import', 'tsx'],
    minThreads: 0,
    maxThreads: options.maxThreads ?? 1,
    // An idle thread is given back after a minute; the next import pays ~1 s to start one.
    idleTimeout: 60_000,
    // A workbook that needs more than this to read ends its thread, not the server.
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return {
    read: async (task) => {
      try {
        return (await pool.run(task)) as ReadWorkbookResult;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
          return { ok: false, reason: `Reading the workbook needs more than ${WORKER_HEAP_MB} MB` };
        }
        throw error;
      }
    },
    close: () => pool.destroy(),
  };
}
