import { NotBuiltPage } from '../../../components/ui/not-built';
import type { ScreenProps } from '../../../lib/routes';

/**
 * Every reports screen until a later issue builds it: the route's title and the not-built notice.
 * This module is loaded lazily, in the reports section's own chunk.
 */
export function ReportsScreen(props: ScreenProps) {
  return <NotBuiltPage {...props} />;
}
