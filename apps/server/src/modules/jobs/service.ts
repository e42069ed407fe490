import type { JobRun } from '@railwatt/contracts';
import type { ReadContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { JobRunner } from './runner.js';

/**
 * GET /jobs/{id}: a run of the request's area; 404 for an unknown id and for another area's run
 * alike. Through the runner: a run this process works on answers its newest progress, which is
 * written behind the handler (runner.ts progressWriter).
 */
export async function getJobRun(runner: Pick<JobRunner, 'getRun'>, ctx: ReadContext, id: string): Promise<JobRun> {
  const run = await runner.getRun(ctx, id);
  if (!run) throw ApiError.notFound('Unknown job');
  return run;
}
