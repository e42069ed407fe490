import { useState } from 'react';
import { Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { PageTitle } from '../../../../components/ui/page-title';
import type { ScreenProps } from '../../../../lib/routes';
import { useModalStore } from '../../../../lib/stores/modal-store';
import { interfaceRouteIdsQuery } from '../../api/interfaces';
import { InterfaceForm } from './interface-form';
import { emptyInterfaceForm } from './interface-form-schema';
import { StoredRouteEditor } from './interface-registration-page';
import { useInterfacesT } from './use-interfaces-t';

/**
 * /administration/interface/config/configuration (exchange area): the same route editor as the
 * registration page, with a choice of the route to change (none: a new route).
 */
export function InterfaceConfigurationPage(props: ScreenProps) {
  const { t } = useInterfacesT();
  const ids = useQuery(interfaceRouteIdsQuery());
  const openModal = useModalStore((s) => s.open);
  const [routeId, setRouteId] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const onSaved = () => {
    openModal({ type: 'confirmation', message: t('form.saved') });
    // A new route becomes selectable; the editor starts afresh.
    setRouteId(null);
    setGeneration((g) => g + 1);
  };
  return (
    <Stack gap="sm">
      <PageTitle {...props} />
      <Text size="sm" c="dimmed">
        {t('configuration.intro')}
      </Text>
      <Select
        label={t('configuration.choose')}
        placeholder={t('configuration.new_route')}
        data={ids.data ?? []}
        value={routeId}
        onChange={setRouteId}
        searchable
        clearable
        maw={400}
      />
      {routeId ? (
        <StoredRouteEditor key={`${routeId}-${generation}`} routeId={routeId} onSaved={onSaved} />
      ) : (
        <InterfaceForm key={`new-${generation}`} initial={emptyInterfaceForm()} editing={false} onSaved={onSaved} />
      )}
    </Stack>
  );
}
