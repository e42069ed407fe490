import type { render } from '@testing-library/react';
import type { InterfaceRoute, InterfaceRouteTestResult } from '@railwatt/contracts';
import { renderScreens } from '../../../../../components/ui/screen-harness';
import { InterfaceConfigurationPage } from '../interface-configuration-page';
import { InterfaceHistoryPage } from '../interface-history-page';
import { InterfaceInformationPage } from '../interface-information-page';
import { InterfaceOverviewPage } from '../interface-overview-page';
import { InterfaceRegistrationPage } from '../interface-registration-page';

export { mockFetch, type Call } from '../../../../../components/ui/screen-harness';

const title = (key: string) => ({ titleKey: `routes.administration.${key}` });

/** The interface pages at their paths, with the app's providers, as the erex-administrator. */
export function renderInterfaces(path: string): ReturnType<typeof render> {
  const base = '/administration/interface';
  return renderScreens(
    [
      { path: `${base}/overview`, element: <InterfaceOverviewPage {...title('interfaceOverview')} /> },
      { path: `${base}/registration`, element: <InterfaceRegistrationPage {...title('interfaceRegistration')} /> },
      { path: `${base}/history`, element: <InterfaceHistoryPage {...title('interfaceHistory')} /> },
      { path: `${base}/config/information`, element: <InterfaceInformationPage {...title('interfaceInformation')} /> },
      {
        path: `${base}/config/configuration`,
        element: <InterfaceConfigurationPage {...title('interfaceConfiguration')} />,
      },
    ],
    path,
    { rolesInArea: ['erex-administrator'], timeZone: 'Europe/Oslo' },
  );
}

export function interfaceRoute(over: Partial<InterfaceRoute> = {}): InterfaceRoute {
  return {
    routeId: 'cebd-in-no',
    description: 'CEBD from the Norwegian DCS',
    interfaceType: 'CEBD',
    direction: 'IN',
    folder: null,
    serverType: 'INTERNAL',
    username: 'railwatt',
    path: '/incoming',
    backupPath: '/backup',
    hostname: 'sftp.example.org',
    port: 22,
    enabled: true,
    changeComment: null,
    subFolders: [],
    hostKeyFingerprint: null,
    credentialsKind: 'password',
    createdAt: '2026-01-05T10:00:00.000Z',
    createdBy: 'erex-administrator',
    updatedAt: '2026-01-05T10:00:00.000Z',
    updatedBy: 'erex-administrator',
    ...over,
  };
}

export const pageOf = (content: InterfaceRoute[]) => ({
  content,
  totalElements: content.length,
  totalPages: 1,
  number: 0,
  size: 20,
});

/** A host key fingerprint as ssh-keygen -l prints it (SHA256: and 43 base64 characters). */
export const HOST_KEY = 'SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s';
/** Another server's key: what a replaced (or impostor) server presents. */
export const OTHER_HOST_KEY = 'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8';

/** A successful connection test that met HOST_KEY, with `over`. */
export const testedWithHostKey = (over: Partial<InterfaceRouteTestResult> = {}): InterfaceRouteTestResult => ({
  ok: true,
  outcome: 'ok',
  message: 'Connected to sftp.example.org:22; 0 entries in /incoming',
  entries: [],
  hostKeyFingerprint: HOST_KEY,
  ...over,
});

export const TEST_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
