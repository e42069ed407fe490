import { VERSION_STRING } from '@railwatt/contracts';
import { Box, Center, Loader, Text, Title } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { LoadingOverlay } from '../components/ui/loading-overlay';
import { useAppAuth } from '../lib/auth/auth';
import type { AppRoute } from '../lib/routes';
import { useMarketStore } from '../lib/stores/market-store';
import { useModalStore } from '../lib/stores/modal-store';
import { guardRedirect } from './guards';
import { Header } from './header';
import { useLastVisit } from './last-visit';
import { resolveRedirect } from './redirects';
import { routeExists } from './route-table';
import { SectionMenu } from './section-menu';
import { useAreaBootstrap } from './use-area-bootstrap';

// The modal host (Mantine Modal and its scroll lock) loads with the first modal, not with the shell.
const ModalHost = lazy(() => import('../components/ui/modal-host').then((m) => ({ default: m.ModalHost })));

function useMatchedChain(): AppRoute[] {
  return useMatches()
    .map((m) => (m.handle as { route?: AppRoute } | undefined)?.route)
    .filter((r): r is AppRoute => r !== undefined);
}

/** The routed content: redirect rules first, then the guard, then the screen. */
function Content({ authenticated, username }: { authenticated: boolean; username: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const chain = useMatchedChain();
  const market = useMarketStore();
  const previous = useRef<string | null>(null);
  const from = previous.current;
  useEffect(() => {
    previous.current = location.pathname;
  }, [location.pathname]);
  // An area switch is complete when the router reaches the new area's landing.
  const headingTo = market.landing;
  useEffect(() => {
    if (headingTo !== null && headingTo === location.pathname) useMarketStore.getState().setLanding(null);
  }, [headingTo, location.pathname]);

  const open = chain.some((r) => r.ignoreAuth);
  const settled =
    !open && market.area !== null && market.rendered && (headingTo === null || headingTo === location.pathname);
  // A returning user lands on the page last left in this area (app/last-visit.ts), before the landing rules.
  const returnTo = useLastVisit(username, settled, market);
  if (!open && !market.area) {
    return (
      <Title order={2} data-testid="select-area">
        {t('shell.selectArea')}
      </Title>
    );
  }
  // Not yet at the landing of a switch: the open page is the old area's; judge nothing, show nothing.
  if (!market.rendered || (headingTo !== null && headingTo !== location.pathname)) return null;
  if (returnTo) return <Navigate to={returnTo} replace />;
  if (market.area && !open) {
    const redirect = resolveRedirect({
      pathname: location.pathname,
      roles: market.rolesInArea,
      area: market.area.kind,
      exists: (p) => routeExists(p),
    });
    if (redirect && redirect !== location.pathname) return <Navigate to={redirect} replace />;
  }
  const denied = guardRedirect({
    chain,
    authenticated,
    roles: market.rolesInArea,
    area: market.area?.kind ?? null,
    from,
    to: location.pathname,
    market,
  });
  if (denied) return <Navigate to={denied} replace />;
  return (
    <Suspense
      fallback={
        <Center p="xl">
          <Loader />
        </Center>
      }
    >
      {/* Keyed by area: after a switch every screen mounts afresh. */}
      <Outlet key={market.area?.uuid ?? 'none'} />
    </Suspense>
  );
}

/** The shell around every route: header, the section's second level, content, footer, the modal host and the loading overlay. */
export function RootLayout() {
  const auth = useAppAuth();
  const modalOpen = useModalStore((s) => s.modal.type !== 'none');
  useAreaBootstrap(auth);
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Header auth={auth} />
      <SectionMenu>
        <Box component="main" p="md" style={{ flex: 1 }}>
          <Content authenticated={auth.isAuthenticated} username={auth.username} />
        </Box>
      </SectionMenu>
      <Box component="footer" px="md" py={6} style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Text size="xs" c="dimmed" data-testid="app-version">
          {VERSION_STRING}
        </Text>
      </Box>
      {modalOpen ? (
        <Suspense fallback={null}>
          <ModalHost />
        </Suspense>
      ) : null}
      <LoadingOverlay />
    </Box>
  );
}
