import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { toEntityKind } from '@railwatt/contracts';
import { PageTitle } from '../page-title';
import { byStart, SegmentsHistory } from '../segments-history';
import { entityVersionsQuery } from './entity-api';
import type { EntityPageProps } from './entity-registration-page';
import { useEntityKitContext, useEntityKitT } from './use-entity-kit';

const HEADERS = {
  name: 'field.name',
  validFrom: 'field.validFrom',
  validTo: 'field.validTo',
  status: 'field.status',
  comments: 'field.comments',
  lastModified: 'field.lastModified',
  lastModifiedBy: 'field.lastModifiedBy',
};

/** segmentshistory?uuid=&type=: every segment of one entity, superseded ones marked. */
export function EntitySegmentsHistoryPage({ section, ...screen }: EntityPageProps) {
  const { t, kindLabel } = useEntityKitT();
  const { timeZone } = useEntityKitContext(section);
  const [params] = useSearchParams();
  const uuid = params.get('uuid') ?? '';
  const kind = toEntityKind(params.get('type')) ?? section.kinds[0]!;
  const versions = useQuery({ ...entityVersionsQuery(kind, uuid), enabled: uuid !== '' });
  const latestName = [...(versions.data ?? [])].sort(byStart).at(-1)?.name ?? '';

  return (
    <SegmentsHistory
      title={screen.titleKey && <PageTitle titleKey={screen.titleKey} titleArgs={screen.titleArgs} />}
      notice={
        uuid === '' ? (
          <Text c="dimmed">{t('history.no_entity')}</Text>
        ) : (
          <Text>{t('history.intro', { kind: kindLabel(kind), name: latestName })}</Text>
        )
      }
      segments={versions.data}
      error={versions.isError ? versions.error : null}
      loaded={versions.isSuccess}
      timeZone={timeZone}
      t={t}
      headerKeys={HEADERS}
    />
  );
}
