import { Alert, Code, Text } from '@mantine/core';
import type { InterfaceRouteTestResult } from '@railwatt/contracts';
import { useInterfacesT } from './use-interfaces-t';

export interface TestConnectionResultProps {
  result: InterfaceRouteTestResult;
  /** The test of a saved route (the overview's): its id heads the outcome. */
  routeId?: string;
  /** The form's test: the empty host key field took the key the server presented. */
  hostKeyFilled?: boolean;
}

/**
 * The answer of a connection test: the outcome in the user's language, the server's details, the
 * host key the server presented (and whether it is now pinned, or waits in the form to be saved),
 * the listing.
 */
export function TestConnectionResult({ result, routeId, hostKeyFilled = false }: TestConnectionResultProps) {
  const { t } = useInterfacesT();
  const outcome = t(`test.outcome.${result.outcome}`);
  return (
    <Alert
      data-testid="test-connection-result"
      color={result.ok ? 'green' : 'red'}
      title={routeId ? `${routeId}: ${outcome}` : outcome}
    >
      <Text size="sm">{result.message}</Text>
      {result.hostKeyFingerprint && (
        <Text size="sm" mt="xs">
          {t('test.host_key')} <Code data-testid="test-connection-host-key">{result.hostKeyFingerprint}</Code>
        </Text>
      )}
      {result.hostKeyPinned && (
        <Text size="sm" data-testid="test-connection-host-key-pinned">
          {t('test.host_key_pinned')}
        </Text>
      )}
      {hostKeyFilled && (
        <Text size="sm" data-testid="test-connection-host-key-filled">
          {t('test.host_key_filled')}
        </Text>
      )}
      {result.entries && result.entries.length > 0 && (
        <>
          <Text size="sm" mt="xs">
            {t('test.entries')}
          </Text>
          <Code block data-testid="test-connection-entries">
            {result.entries.join('\n')}
          </Code>
        </>
      )}
    </Alert>
  );
}
