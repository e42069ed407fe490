import type { CallDeclaration } from './define.js';
import { dataLogCalls } from './datalog.js';
import { delayedTaskCalls } from './delayed-tasks.js';
import { deadLetterQueueCalls } from './dead-letter-queues.js';
import { domainCalls } from './domain.js';
import { excelCalls } from './excel.js';
import { organisationCalls } from './organisations.js';
import { parameterOverviewCalls } from './parameter-overview.js';
import { processingCalls } from './processing.js';
import { procedureTaskCalls } from './procedure-tasks.js';
import { processingConfigCalls } from './processing-config.js';
import { reportCalls } from './reports.js';
import { reportScheduleCalls } from './report-schedules.js';
import { sentMailCalls } from './sent-mail.js';
import { sftpIntegrationCalls } from './sftp-integration.js';
import { settlementCalls } from './settlement.js';
import { statisticsCalls } from './statistics.js';
import { timeSeriesCalls } from './timeseries.js';
import { userCalls } from './user.js';
import { userAdminCalls } from './users.js';

export * from './define.js';
export * from './policies.js';
export { dataLogCalls } from './datalog.js';
export { delayedTaskCalls } from './delayed-tasks.js';
export { deadLetterQueueCalls } from './dead-letter-queues.js';
export { domainCalls, windowQuerySchema } from './domain.js';
export { excelCalls } from './excel.js';
export { organisationCalls } from './organisations.js';
export { parameterOverviewCalls } from './parameter-overview.js';
export { processingCalls } from './processing.js';
export { procedureTaskCalls } from './procedure-tasks.js';
export { processingConfigCalls } from './processing-config.js';
export { reportCalls } from './reports.js';
export { reportScheduleCalls } from './report-schedules.js';
export { sentMailCalls } from './sent-mail.js';
export { sftpIntegrationCalls } from './sftp-integration.js';
export { settlementCalls } from './settlement.js';
export { statisticsCalls } from './statistics.js';
export * from './timeseries.js';
export { userCalls } from './user.js';
export { userAdminCalls } from './users.js';

/** Every call the server serves, by group: the route registration and the access tests read this. */
export const CALL_GROUPS = {
  user: userCalls,
  domain: domainCalls,
  organisations: organisationCalls,
  users: userAdminCalls,
  excel: excelCalls,
  sftpIntegration: sftpIntegrationCalls,
  sentMail: sentMailCalls,
  timeSeries: timeSeriesCalls,
  dataLog: dataLogCalls,
  processing: processingCalls,
  processingConfig: processingConfigCalls,
  delayedTasks: delayedTaskCalls,
  deadLetterQueues: deadLetterQueueCalls,
  procedureTasks: procedureTaskCalls,
  statistics: statisticsCalls,
  settlement: settlementCalls,
  parameterOverview: parameterOverviewCalls,
  reports: reportCalls,
  reportSchedules: reportScheduleCalls,
} as const satisfies Record<string, Record<string, CallDeclaration>>;

/** Every declared call, flat, named `group.name`. */
export const ALL_CALLS: readonly (CallDeclaration & { id: string })[] = Object.entries(CALL_GROUPS).flatMap(
  ([group, calls]) =>
    Object.entries(calls).map(([name, call]) => ({ ...(call as CallDeclaration), id: `${group}.${name}` })),
);
