import { NotBuiltPage } from '../../../components/ui/not-built';
import type { ScreenProps } from '../../../lib/routes';

/**
 * Every masterdata screen until a later issue builds it: the route's title and the not-built notice.
 * This module is loaded lazily, in the masterdata section's own chunk.
 */
export function MasterdataScreen(props: ScreenProps) {
  return <NotBuiltPage {...props} />;
}
