import type { ProcedureResultStatus } from '@railwatt/contracts';

/**
 * The colour of a procedure result's status wherever one is shown (process log, result view,
 * settlement results): green success, teal approved, red failure, blue running ...; gray otherwise.
 */
const RESULT_STATUS_COLORS: Partial<Record<ProcedureResultStatus, string>> = {
  success: 'green',
  approved: 'teal',
  corrected: 'teal',
  failure: 'red',
  rejected: 'red',
  invalid: 'red',
  running: 'blue',
  initial: 'gray',
  rerun: 'indigo',
  update: 'indigo',
  cancelled: 'yellow',
  dismissed: 'yellow',
};

export const resultStatusColor = (status: ProcedureResultStatus): string => RESULT_STATUS_COLORS[status] ?? 'gray';
