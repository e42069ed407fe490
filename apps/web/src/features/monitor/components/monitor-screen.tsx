import { configProcedureOf, procedureNameSchema } from '@railwatt/contracts';
import { ProcedureDeadLetterPage } from '../../../components/ui/dead-letter/dead-letter-pages';
import { NotBuiltPage } from '../../../components/ui/not-built';
import type { ScreenProps } from '../../../lib/routes';
import { DelayedTasksPage } from './delayed-tasks-page';
import {
  ConfigEditPage,
  ConfigSegmentsHistoryPage,
  ConfigViewPage,
} from '../../../components/ui/process-config/process-config-pages';
import { CompletenessPage } from './completeness/completeness-page';
import { EventMonitorPage } from './event-monitor-page';
import { ParameterOverviewPage } from './parameter-overview/parameter-overview-page';
import { ProcessLogPage } from './process-log-page';
import { ProcessRunPage } from './process-run-page';
import { ErrorViewPage, EventViewPage, ProcessResultViewPage } from './process-views';
import { ProcessesPage } from './processes-page';

/** The process a process page belongs to: its title argument is the i18n key 'processes.<name>'. */
const processOf = (props: ScreenProps) => props.titleArgs?.['process']?.replace(/^processes\./, '') ?? '';
const procedureOf = (props: ScreenProps) => configProcedureOf(processOf(props));
const runProcedureOf = (props: ScreenProps) => procedureNameSchema.safeParse(processOf(props)).data;

/**
 * The monitor screens (monitor.routes.tsx names them by title key): the processes index, each
 * process's log, run and configuration pages, the configuration segments history, the event monitor
 * and the error, event and process result views, shunting-and-stabling's delayed tasks, a process's
 * dead letter page, completeness verification and the parameter overview are built; every other page
 * shows the route's title and the not-built notice until a later issue builds it. This module is
 * loaded lazily, in the monitor section's own chunk.
 */
export function MonitorScreen(props: ScreenProps) {
  const procedure = procedureOf(props);
  const process = runProcedureOf(props);
  if (procedure && props.titleKey === 'routes.monitor.process.configurationView')
    return <ConfigViewPage key={procedure} procedure={procedure} {...props} />;
  if (procedure && props.titleKey === 'routes.monitor.process.configurationEdit')
    return <ConfigEditPage key={procedure} procedure={procedure} {...props} />;
  if (props.titleKey === 'routes.common.segmentsHistory') return <ConfigSegmentsHistoryPage {...props} />;
  // shunting-and-stabling's delayed tasks (the route exists only for that process).
  if (props.titleKey === 'routes.monitor.process.delayedTasks') return <DelayedTasksPage {...props} />;
  // A process's dead letter page (combine's, product.md §2): that procedure's dead runs.
  if (process && props.titleKey === 'routes.monitor.process.deadLetterQueue')
    return <ProcedureDeadLetterPage key={process} procedure={process} {...props} />;
  if (props.titleKey === 'routes.monitor.completenessVerification') return <CompletenessPage by="unit" {...props} />;
  if (props.titleKey === 'routes.monitor.completenessVerificationCp') return <CompletenessPage by="point" {...props} />;
  // `key`: moving from one process's page to another's starts the screen afresh (its drafts, its run).
  if (process && props.titleKey === 'routes.monitor.process.log')
    return <ProcessLogPage key={process} procedure={process} {...props} />;
  if (process && props.titleKey === 'routes.monitor.process.run')
    return <ProcessRunPage key={process} procedure={process} {...props} />;
  if (props.titleKey === 'routes.monitor.processes') return <ProcessesPage {...props} />;
  if (props.titleKey === 'routes.monitor.eventMonitor') return <EventMonitorPage {...props} />;
  if (props.titleKey === 'routes.monitor.parameterOverview') return <ParameterOverviewPage {...props} />;
  if (props.titleKey === 'routes.monitor.errorView') return <ErrorViewPage {...props} />;
  if (props.titleKey === 'routes.monitor.eventView') return <EventViewPage {...props} />;
  if (props.titleKey === 'routes.monitor.processResultView') return <ProcessResultViewPage {...props} />;
  return <NotBuiltPage {...props} />;
}
