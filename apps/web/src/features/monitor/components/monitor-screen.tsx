import { configProcedureOf } from '@railwatt/contracts';
import { NotBuiltPage } from '../../../components/ui/not-built';
import type { ScreenProps } from '../../../lib/routes';
import {
  ConfigEditPage,
  ConfigSegmentsHistoryPage,
  ConfigViewPage,
} from '../../../components/ui/process-config/process-config-pages';

/** The process a process page belongs to: its title argument is the i18n key 'processes.<name>'. */
const procedureOf = (props: ScreenProps) =>
  configProcedureOf(props.titleArgs?.['process']?.replace(/^processes\./, '') ?? '');

/**
 * The monitor screens (monitor.routes.tsx names them by title key): the processes' configuration view
 * and edit pages and the configuration segments history are built; every other page shows the route's
 * title and the not-built notice until a later issue builds it. This module is loaded lazily, in the
 * monitor section's own chunk.
 */
export function MonitorScreen(props: ScreenProps) {
  const procedure = procedureOf(props);
  if (procedure && props.titleKey === 'routes.monitor.process.configurationView')
    return <ConfigViewPage key={procedure} procedure={procedure} {...props} />;
  if (procedure && props.titleKey === 'routes.monitor.process.configurationEdit')
    return <ConfigEditPage key={procedure} procedure={procedure} {...props} />;
  if (props.titleKey === 'routes.common.segmentsHistory') return <ConfigSegmentsHistoryPage {...props} />;
  return <NotBuiltPage {...props} />;
}
