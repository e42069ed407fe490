import { useMemo, useState } from 'react';
import { Button, FileButton, Group, Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  AREA_KINDS_INFRASTRUCTURE,
  AREA_PARENTS,
  areaGeometrySchema,
  ENTITY_KINDS,
  MESSAGES,
  toEntityKind,
  type AreaGeometry,
  type InfrastructureAreaKind,
  type SaveEntity,
  type VersionedEntity,
} from '@railwatt/contracts';
import {
  drawingFromGeometry,
  drawingToGeometry,
  EMPTY_DRAWING,
  LazyAreaMap,
  readAreaGeoJsonFile,
  type DrawingState,
  type MapArea,
} from '../../../../components/ui/map';
import { DayInput, dayInZone } from '../../../../components/ui/set-status-dialog';
import { formatKilobytes } from '../../../../lib/format';
import type { ScreenProps } from '../../../../lib/routes';
import { useModalStore } from '../../../../lib/stores/modal-store';
import { useFormat } from '../../../../lib/use-format';
import { areaQuery, areasListQuery, minimalAreasQuery, useSaveArea } from '../../api/areas';
import { useAreaContext } from '../../hooks/use-area-context';
import { useAreasT } from '../../hooks/use-areas-t';
import { AreaPageTitle } from './area-page-title';
import {
  areaFormSchema,
  emptyAreaForm,
  formMessage,
  GRID_AREA_OVERLAYS,
  type AreaFormValues,
} from './area-form-schema';
import { areaSaveErrors, type AreaSaveErrors } from './area-save-errors';
import { AREAS_OVERVIEW } from './areas-overview-page';
import { ServerErrors } from '../../../../components/ui/api-error';

const isAreaKind = (k: string | undefined): k is InfrastructureAreaKind =>
  !!k && (AREA_KINDS_INFRASTRUCTURE as readonly string[]).includes(k);

/**
 * Attributes an edit keeps although the form does not show them (code, description ...). A grid
 * area's price area and tax area are the form's own (GRID_AREA_OVERLAYS).
 */
const KEPT_ATTRIBUTES = ['code', 'description', 'originalName', 'settlementPartner'] as const;

const storedRef = (existing: VersionedEntity, field: string): string | null => {
  const value = existing[field];
  return typeof value === 'string' && value !== '' ? value : null;
};

/**
 * /infrastructure/areas/registration (?uuid=&type= edits an area): type, name, parent where the type
 * has one (AREA_PARENTS), validity, comment, and the polygon drawn on the map or read from a GeoJSON
 * file. The server's refusals are shown in the spec's words where the user fixes them.
 */
export function AreaRegistrationPage(props: Partial<ScreenProps>) {
  const { t } = useAreasT();
  const [params] = useSearchParams();
  const uuid = params.get('uuid') ?? '';
  const kind = toEntityKind(params.get('type'));
  const editing = uuid !== '' && isAreaKind(kind);
  const existing = useQuery({ ...areaQuery(kind ?? 'gridarea', uuid), enabled: editing });

  return (
    <Stack gap="md">
      <AreaPageTitle screen={props} fallbackKey="registration.title" />
      {editing && existing.isPending && <Text c="dimmed">{t('registration.loading')}</Text>}
      {editing && existing.isError && (
        <Text c="red" role="alert">
          {t('registration.load_failed')}
        </Text>
      )}
      {(!editing || existing.data) && (
        <AreaForm
          key={uuid || 'new'}
          existing={editing ? existing.data : undefined}
          initialKind={isAreaKind(kind) ? kind : undefined}
        />
      )}
    </Stack>
  );
}

function initialValues(existing: VersionedEntity | undefined, kind: InfrastructureAreaKind | undefined, zone: string) {
  if (!existing) return emptyAreaForm(kind);
  const k = toEntityKind(existing.type) as InfrastructureAreaKind;
  const parentField = AREA_PARENTS[k]?.field;
  const parent = parentField ? existing[parentField] : undefined;
  const end = existing.timeRange.end;
  return {
    kind: k,
    name: existing.name,
    parentRef: typeof parent === 'string' ? parent : null,
    priceAreaRef: storedRef(existing, 'priceAreaRef'),
    taxAreaRef: storedRef(existing, 'taxAreaRef'),
    validFrom: dayInZone(existing.timeRange.start, zone),
    validTo: new Date(end).getUTCFullYear() >= 2070 ? null : dayInZone(end, zone),
    comment: existing.comments ?? '',
  } satisfies AreaFormValues;
}

function AreaForm({ existing, initialKind }: { existing?: VersionedEntity; initialKind?: InfrastructureAreaKind }) {
  const { t, tRoot } = useAreasT();
  const { language } = useFormat();
  const navigate = useNavigate();
  const openModal = useModalStore((s) => s.open);
  const { timeZone, toRange } = useAreaContext();
  const save = useSaveArea();

  const storedGeometry = useMemo(() => {
    const parsed = areaGeometrySchema.safeParse(existing?.geometry);
    return parsed.success ? parsed.data : null;
  }, [existing]);
  const editable = drawingFromGeometry(storedGeometry);
  // A polygon with holes or several parts cannot be edited vertex by vertex: it is kept as it is
  // (shown on the map) until the user clears it or uploads another file.
  const [drawing, setDrawing] = useState<DrawingState>(editable ?? EMPTY_DRAWING);
  const [fixed, setFixed] = useState<AreaGeometry | null>(editable ? null : storedGeometry);
  const [fileMessage, setFileMessage] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<AreaSaveErrors>({ other: [] });
  const [geometryMissing, setGeometryMissing] = useState(false);

  const form = useForm<AreaFormValues>({
    resolver: zodResolver(areaFormSchema),
    defaultValues: initialValues(existing, initialKind, timeZone),
  });
  const kind = form.watch('kind');
  const parentRef = form.watch('parentRef');
  const parent = AREA_PARENTS[kind];

  const parentOptions = useQuery({
    ...minimalAreasQuery(parent?.kind ?? 'energyusesettlementarea'),
    enabled: !!parent,
  });
  const isGridArea = kind === 'gridarea';
  const overlayOptions = useQueries({
    queries: GRID_AREA_OVERLAYS.map((o) => ({ ...minimalAreasQuery(o.kind), enabled: isGridArea })),
  });
  // On the map: the areas of the same type (so an overlap shows before saving) and the parent kind.
  const contextTypes = parent ? [kind, parent.kind] : [kind];
  const context = useQuery(areasListQuery({ types: contextTypes, active: true, inactive: false }));
  const mapAreas = useMemo<MapArea[]>(() => {
    const others = (context.data ?? []).filter((a) => a.uuid !== existing?.uuid);
    return fixed ? [...others, { uuid: 'fixed', name: '', type: kind, geometry: fixed }] : others;
  }, [context.data, existing?.uuid, fixed, kind]);
  const focus = useMemo(() => (parentRef ? [parentRef] : []), [parentRef]);

  const geometry = fixed ?? drawingToGeometry(drawing);

  const message = (raw: string | undefined) => {
    const m = formMessage(raw);
    if (!m) return undefined;
    return t(m.key, { field: m.field ? t(`entry.${m.field}`) : '', max: m.max });
  };

  const onFile = async (file: File | null) => {
    if (!file) return;
    const result = await readAreaGeoJsonFile(file);
    if (!result.ok) {
      setFileMessage(
        tRoot(`map.geojson.${result.reason}`, {
          ...result.values,
          // The size limit in bytes, shown in kB with two decimals in the user's separators.
          ...(result.reason === 'too_large' ? { max: formatKilobytes(Number(result.values?.max), language) } : {}),
          file: file.name,
        } as Record<string, string>),
      );
      return;
    }
    setFileMessage(null);
    setGeometryMissing(false);
    setServerErrors((e) => ({ ...e, geometry: undefined }));
    const asDrawing = drawingFromGeometry(result.geometry);
    if (asDrawing) {
      setFixed(null);
      setDrawing(asDrawing);
    } else {
      setFixed(result.geometry);
      setDrawing(EMPTY_DRAWING);
    }
  };

  const onSubmit = form.handleSubmit(async (values) => {
    if (!geometry) {
      setGeometryMissing(true);
      return;
    }
    setServerErrors({ other: [] });
    const kept = Object.fromEntries(
      KEPT_ATTRIBUTES.filter((k) => existing && k in existing).map((k) => [k, existing![k]]),
    );
    const body: SaveEntity = {
      ...kept,
      ...(existing ? { uuid: existing.uuid } : {}),
      type: ENTITY_KINDS[values.kind],
      name: values.name.trim(),
      timeRange: toRange(values.validFrom, values.validTo),
      comments: values.comment.trim() === '' ? null : values.comment,
      geometry,
      ...(parent ? { [parent.field]: values.parentRef } : {}),
      // An empty choice is left out: the save replaces the stored attributes, so that clears it.
      ...(values.kind === 'gridarea'
        ? Object.fromEntries(GRID_AREA_OVERLAYS.flatMap((o) => (values[o.field] ? [[o.field, values[o.field]]] : [])))
        : {}),
    };
    try {
      await save.mutateAsync(body);
      const target = `${AREAS_OVERVIEW}?types=${values.kind}`;
      openModal({ type: 'confirmation', message: t('messages.saved'), redirectTo: target });
      void navigate(target);
    } catch (error) {
      setServerErrors(areaSaveErrors(error, tRoot, t('form.name_unique', { defaultValue: MESSAGES.nameNotUnique })));
    }
  });

  const nameError = form.formState.errors.name?.message;
  const geometryError =
    serverErrors.geometry ?? (geometryMissing && !geometry ? t('registration.geometry_required') : undefined);

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate data-testid="area-form">
      <Stack gap="sm">
        <ServerErrors messages={serverErrors.other} testId="area-errors" />
        <Group align="flex-start" grow>
          <Controller
            control={form.control}
            name="kind"
            render={({ field }) => (
              <Select
                label={t('entry.type')}
                data={AREA_KINDS_INFRASTRUCTURE.map((k) => ({ value: k, label: tRoot(`map.area_types.${k}`) }))}
                value={field.value}
                onChange={(v) => {
                  if (!v) return;
                  field.onChange(v);
                  form.setValue('parentRef', null);
                  for (const o of GRID_AREA_OVERLAYS) form.setValue(o.field, null);
                }}
                disabled={!!existing}
                allowDeselect={false}
                withAsterisk
                error={message(form.formState.errors.kind?.message)}
                data-testid="area-type"
              />
            )}
          />
          <TextInput
            label={t('entry.name')}
            withAsterisk
            {...form.register('name')}
            error={serverErrors.name ?? message(nameError)}
            data-testid="area-name"
          />
          {parent && (
            <Controller
              control={form.control}
              name="parentRef"
              render={({ field }) => (
                <Select
                  label={t('entry.parent')}
                  placeholder={t('form.please_select')}
                  nothingFoundMessage={t('form.no_options')}
                  data={(parentOptions.data ?? []).map((p) => ({ value: p.uuid, label: p.name }))}
                  value={field.value}
                  onChange={field.onChange}
                  searchable
                  withAsterisk
                  error={message(form.formState.errors.parentRef?.message)}
                  data-testid="area-parent"
                />
              )}
            />
          )}
        </Group>
        {isGridArea && (
          <Group align="flex-start" grow>
            {GRID_AREA_OVERLAYS.map((o, i) => (
              <Controller
                key={o.field}
                control={form.control}
                name={o.field}
                render={({ field }) => (
                  <Select
                    label={t(o.labelKey)}
                    placeholder={t('form.please_select')}
                    nothingFoundMessage={t('form.no_options')}
                    data={(overlayOptions[i]?.data ?? []).map((a) => ({ value: a.uuid, label: a.name }))}
                    value={field.value}
                    onChange={field.onChange}
                    searchable
                    clearable
                    data-testid={`area-${o.kind}`}
                  />
                )}
              />
            ))}
          </Group>
        )}
        <Group align="flex-start" grow>
          <Controller
            control={form.control}
            name="validFrom"
            render={({ field }) => (
              <DayInput
                label={t('entry.valid_from')}
                value={field.value}
                onChange={field.onChange}
                clearable
                data-testid="area-valid-from"
              />
            )}
          />
          <Controller
            control={form.control}
            name="validTo"
            render={({ field }) => (
              <DayInput
                label={t('entry.valid_to')}
                value={field.value}
                onChange={field.onChange}
                clearable
                error={message(form.formState.errors.validTo?.message)}
                data-testid="area-valid-to"
              />
            )}
          />
        </Group>
        <Textarea
          label={t('entry.comment')}
          autosize
          minRows={2}
          {...form.register('comment')}
          data-testid="area-comment"
        />

        <Paper withBorder p="sm">
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600}>{t('registration.geometry')}</Text>
              <Group gap="xs">
                {fixed && (
                  <Button
                    size="xs"
                    variant="outline"
                    color="red"
                    onClick={() => setFixed(null)}
                    data-testid="area-clear-file"
                  >
                    {t('registration.clear_geometry')}
                  </Button>
                )}
                <FileButton
                  onChange={(f) => void onFile(f)}
                  accept=".geojson,.json,application/geo+json,application/json"
                >
                  {(fileProps) => (
                    <Button size="xs" variant="outline" {...fileProps} data-testid="area-upload-geojson">
                      {t('registration.upload_geojson')}
                    </Button>
                  )}
                </FileButton>
              </Group>
            </Group>
            <Text size="sm" c="dimmed">
              {fixed ? t('registration.fixed_hint') : t('registration.draw_hint')}
            </Text>
            {fileMessage && (
              <Text c="red" size="sm" role="alert" data-testid="area-file-error">
                {fileMessage}
              </Text>
            )}
            <LazyAreaMap
              areas={mapAreas}
              focus={focus}
              fitGeometry={storedGeometry}
              drawing={fixed ? undefined : { state: drawing, onChange: setDrawing }}
              height={460}
              data-testid="area-registration-map"
            />
            {geometryError && (
              <Text c="red" size="sm" role="alert" data-testid="area-geometry-error">
                {geometryError}
              </Text>
            )}
          </Stack>
        </Paper>

        <Group>
          <Button type="submit" loading={save.isPending} data-testid="area-save">
            {t('registration.save')}
          </Button>
          <Button component={Link} to={AREAS_OVERVIEW} variant="outline">
            {t('registration.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
