import { NotBuiltPage } from '../../../components/ui/not-built';
import type { ScreenProps } from '../../../lib/routes';

/**
 * Every fleet screen until a later issue builds it: the route's title and the not-built notice.
 * This module is loaded lazily, in the fleet section's own chunk.
 */
export function FleetScreen(props: ScreenProps) {
  return <NotBuiltPage {...props} />;
}
