import { useMemo } from 'react';
import { Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { AREA_PARENTS, isInfrastructureAreaKind, toEntityKind } from '@railwatt/contracts';
import { SegmentsHistory } from '../../../../components/ui/segments-history';
import type { ScreenProps } from '../../../../lib/routes';
import { areaVersionsQuery, minimalAreasQuery } from '../../api/areas';
import { useAreaContext } from '../../hooks/use-area-context';
import { useAreasT } from '../../hooks/use-areas-t';
import { AreaPageTitle } from './area-page-title';
import { AREAS_OVERVIEW } from './areas-overview-page';

const HEADERS = {
  name: 'entry.name',
  validFrom: 'entry.valid_from',
  validTo: 'entry.valid_to',
  status: 'entry.status',
  comments: 'history.comments',
  lastModified: 'history.last_modified',
  lastModifiedBy: 'history.last_modified_by',
};

/**
 * /infrastructure/segmentshistory?uuid=&type=: every version of one infrastructure entity (current and
 * superseded segments) from GET /domain/{type}/versions/{uuid}; for an area with a parent kind the
 * parent's name is shown per version.
 */
export function InfrastructureSegmentsHistoryPage(props: Partial<ScreenProps>) {
  const { t } = useAreasT();
  const { timeZone } = useAreaContext();
  const [params] = useSearchParams();
  const uuid = params.get('uuid') ?? '';
  const kind = toEntityKind(params.get('type'));
  const parent = kind && isInfrastructureAreaKind(kind) ? AREA_PARENTS[kind] : undefined;

  const versions = useQuery({ ...areaVersionsQuery(kind ?? '', uuid), enabled: uuid !== '' && !!kind });
  const parents = useQuery({ ...minimalAreasQuery(parent?.kind ?? ''), enabled: !!parent });
  const parentName = useMemo(() => {
    const names = new Map((parents.data ?? []).map((p) => [p.uuid, p.name]));
    return (ref: unknown) => (typeof ref === 'string' ? (names.get(ref) ?? ref) : '');
  }, [parents.data]);

  return (
    <SegmentsHistory
      title={<AreaPageTitle screen={props} fallbackKey="history.title" />}
      notice={(uuid === '' || !kind) && <Text c="dimmed">{t('history.no_entity')}</Text>}
      segments={versions.data}
      error={versions.isError ? versions.error : null}
      loaded={versions.isSuccess}
      timeZone={timeZone}
      t={t}
      headerKeys={HEADERS}
      showActive
      extraColumns={parent ? [{ header: t('entry.parent'), cell: (s) => parentName(s.attributes[parent.field]) }] : []}
      footer={
        kind &&
        isInfrastructureAreaKind(kind) && (
          <div>
            <Button component={Link} to={`${AREAS_OVERVIEW}?types=${kind}`} variant="outline">
              {t('history.back')}
            </Button>
          </div>
        )
      }
    />
  );
}
