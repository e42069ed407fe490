import { NotBuiltPage } from '../../../components/ui/not-built';
import type { ScreenProps } from '../../../lib/routes';

/**
 * Every monitor screen until a later issue builds it: the route's title and the not-built notice.
 * This module is loaded lazily, in the monitor section's own chunk.
 */
export function MonitorScreen(props: ScreenProps) {
  return <NotBuiltPage {...props} />;
}
