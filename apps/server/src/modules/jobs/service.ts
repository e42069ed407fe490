import type { JobRun } from '@railwatt/contracts';
import type { ReadContext } from '../../context.js';
import { ApiError } from '../../errors.js';
import { findRun } from './repository.js';

/** GET /jobs/{id}: a run of the request's area; 404 for an unknown id and for another area's run alike. */
export async function getJobRun(ctx: ReadContext, id: string): Promise<JobRun> {
  const run = await findRun(ctx.db, ctx.tenant.uuid, id);
  if (!run) throw ApiError.notFound('Unknown job');
  return run;
}
