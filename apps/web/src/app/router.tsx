import { createBrowserRouter, createMemoryRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import type { AppRoute } from '../lib/routes';
import { RootLayout } from './root-layout';
import { RoutePage } from './route-page';
import { isEnabled, routeTable } from './route-table';

export interface RouteHandle {
  route: AppRoute;
}

function toRouteObject(route: AppRoute): RouteObject {
  const handle: RouteHandle = { route };
  const element =
    route.redirectTo && !route.component ? (
      <Navigate to={route.redirectTo} replace />
    ) : route.component || route.variants ? (
      <RoutePage route={route} />
    ) : (
      <Outlet />
    );
  if (route.index) return { index: true, element, handle };
  return { path: route.path, element, handle, children: route.children?.filter(isEnabled).map(toRouteObject) };
}

/** The router's routes: the root layout around every route of the route table. */
export function appRouteObjects(routes: readonly AppRoute[] = routeTable): RouteObject[] {
  return [{ element: <RootLayout />, children: routes.filter(isEnabled).map(toRouteObject) }];
}

export const createAppRouter = () => createBrowserRouter(appRouteObjects());

export const createTestRouter = (initialEntries: string[]) => createMemoryRouter(appRouteObjects(), { initialEntries });
