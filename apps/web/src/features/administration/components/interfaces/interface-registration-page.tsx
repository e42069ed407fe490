import { Alert, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { PageTitle } from '../../../../components/ui/page-title';
import type { ScreenProps } from '../../../../lib/routes';
import { apiErrorMessages } from '../../../../lib/errors';
import { useModalStore } from '../../../../lib/stores/modal-store';
import { interfaceRouteQuery } from '../../api/interfaces';
import { InterfaceForm } from './interface-form';
import { emptyInterfaceForm, toInterfaceForm } from './interface-form-schema';
import { useInterfacesT } from './use-interfaces-t';

export const INTERFACE_OVERVIEW_PATH = '/administration/interface/overview';

/** /administration/interface/registration (?routeId= to edit): create or change an SFTP route. */
export function InterfaceRegistrationPage(props: ScreenProps) {
  const [params] = useSearchParams();
  const routeId = params.get('routeId');
  const navigate = useNavigate();
  const openModal = useModalStore((s) => s.open);
  const { t } = useInterfacesT();
  const onSaved = () => {
    openModal({ type: 'confirmation', message: t('form.saved'), redirectTo: INTERFACE_OVERVIEW_PATH });
    void navigate(INTERFACE_OVERVIEW_PATH);
  };
  return (
    <Stack gap="sm">
      <PageTitle {...props} />
      {routeId ? (
        <StoredRouteEditor key={routeId} routeId={routeId} onSaved={onSaved} />
      ) : (
        <InterfaceForm initial={emptyInterfaceForm()} editing={false} onSaved={onSaved} />
      )}
    </Stack>
  );
}

/** The editor of a stored route, once it is loaded. */
export function StoredRouteEditor({ routeId, onSaved }: { routeId: string; onSaved: () => void }) {
  const { t, tRoot } = useInterfacesT();
  const route = useQuery(interfaceRouteQuery(routeId));
  if (route.isPending) return <Text>{t('form.loading')}</Text>;
  if (route.isError) {
    return <Alert color="red">{apiErrorMessages(route.error, tRoot).join(' ') || t('form.load_failed')}</Alert>;
  }
  return <InterfaceForm initial={toInterfaceForm(route.data)} editing onSaved={onSaved} />;
}
