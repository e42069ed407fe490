import { useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PageTitle } from '../page-title';
import { ImportScreen } from '../upload-dialog';
import { createEntitiesUpload, entityKitKeys } from './entity-api';
import type { EntityPageProps } from './entity-registration-page';
import { useEntityKitT } from './use-entity-kit';

/** A section's import page: the entities upload dialog (POST /excel/domain/import, one sheet per kind). */
export function EntityImportPage({ section: _section, ...screen }: EntityPageProps) {
  const { t } = useEntityKitT();
  const queryClient = useQueryClient();
  const upload = useMemo(() => createEntitiesUpload((key) => t(key)), [t]);
  return (
    <ImportScreen
      title={screen.titleKey && <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />}
      t={t}
      upload={upload}
      onImported={() => void queryClient.invalidateQueries({ queryKey: entityKitKeys.all })}
    />
  );
}
