import { approvalRefusal, hasGuardedApproval, mayApprove } from '../policy.js';
import { overlaps } from '../segments.js';
import type { RecordAdjustment } from './types.js';

export const APPROVED = 'APPROVED_FOR_BILLING';

/**
 * Approval for billing on save (traction unit types and traction units, policy.ts APPROVERS).
 * - A record without a state keeps a stored approval, whoever saves: a re-save never drops it.
 * - Someone who may not approve: sending APPROVED for an entity that is not approved is a 403;
 *   sending another state for an approved one is a 400 on `state` that says who may. We refuse
 *   rather than silently keep the approval, so the caller learns that the change did not happen;
 *   the forms send the state they read, so an ordinary re-save of an approved entity passes.
 */
export const applyApprovalRules: RecordAdjustment = (actor, p, segments, trusted) => {
  const kind = p.record.kind;
  if (!hasGuardedApproval(kind)) return { planned: p };
  const inRange = (segments ?? []).filter((s) => overlaps(s, p.range));
  const approved = inRange.some((s) => s.state === APPROVED);
  const state = p.record.state ?? (approved ? APPROVED : undefined);
  const planned = state === p.record.state ? p : { ...p, record: { ...p.record, state } };
  if (trusted || mayApprove(actor, kind)) return { planned };
  if (state === APPROVED && !approved) {
    return {
      error: {
        index: p.record.index,
        uuid: p.uuid,
        field: 'state',
        code: 'forbidden',
        status: 403,
        message: approvalRefusal(kind),
      },
    };
  }
  if (approved && state !== APPROVED) {
    return {
      error: {
        index: p.record.index,
        uuid: p.uuid,
        field: 'state',
        code: 'invalid_input',
        message: approvalRefusal(kind),
      },
    };
  }
  return { planned };
};
