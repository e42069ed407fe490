import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { createEntitiesUpload } from '../../../components/ui/entity-kit/entity-api';
import { ImportScreen } from '../../../components/ui/upload-dialog';
import type { ScreenProps } from '../../../lib/routes';
import { fleetKeys } from '../api/fleet-queries';
import { useFleetT } from '../hooks/use-fleet-t';
import { FleetPageTitle } from './fleet-page-title';

/** /fleet/import: the entities upload dialog (product.md §4/§5), POST /excel/domain/import. */
export function FleetImportPage(props: Partial<ScreenProps>) {
  const { t } = useFleetT();
  const queryClient = useQueryClient();
  const upload = useMemo(() => createEntitiesUpload((key) => t(key)), [t]);
  return (
    <ImportScreen
      title={<FleetPageTitle screen={props} fallbackKey="import.title" />}
      t={t}
      upload={upload}
      onImported={() => void queryClient.invalidateQueries({ queryKey: fleetKeys.lists() })}
    />
  );
}
