import { Outlet } from 'react-router';
import { NestedPage } from '../components/ui/page-title';
import type { AppRoute } from '../lib/routes';
import { useMarketStore } from '../lib/stores/market-store';
import { pageVariant } from './redirects';

/**
 * Renders a route's screen (or its variant for the selected area) with the route's title, and below it
 * the matched child route, if any (entity registration and its child forms).
 */
export function RoutePage({ route }: { route: AppRoute }) {
  const area = useMarketStore((s) => s.area?.kind ?? null);
  const { titleKey, component: Screen } = pageVariant(route, area);
  return (
    <NestedPage>
      {Screen ? <Screen titleKey={titleKey} titleArgs={route.titleArgs} /> : null}
      <Outlet />
    </NestedPage>
  );
}
