import { NotBuiltPage } from '../../../components/ui/not-built';
import type { ScreenProps } from '../../../lib/routes';

/**
 * Every infrastructure screen until a later issue builds it: the route's title and the not-built notice.
 * This module is loaded lazily, in the infrastructure section's own chunk.
 */
export function InfrastructureScreen(props: ScreenProps) {
  return <NotBuiltPage {...props} />;
}
