import { Alert, Code, Text } from '@mantine/core';
import type { InterfaceRouteTestResult } from '@railwatt/contracts';
import { useInterfacesT } from './use-interfaces-t';

/** The answer of a connection test: the outcome in the user's language, the server's details, the listing. */
export function TestConnectionResult({ result, routeId }: { result: InterfaceRouteTestResult; routeId?: string }) {
  const { t } = useInterfacesT();
  return (
    <Alert
      data-testid="test-connection-result"
      color={result.ok ? 'green' : 'red'}
      title={routeId ? `${routeId}: ${t(`test.outcome.${result.outcome}`)}` : t(`test.outcome.${result.outcome}`)}
    >
      <Text size="sm">{result.message}</Text>
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
