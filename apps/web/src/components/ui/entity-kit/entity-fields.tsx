import {
  Button,
  CloseButton,
  Checkbox,
  Group,
  Input,
  MultiSelect,
  Select,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import { Controller, type Control, type FieldError } from 'react-hook-form';
import type { FormField } from '@railwatt/contracts';
import { DayInput } from '../set-status-dialog';
import { byName, useMinimalEntities } from './entity-api';
import { areaRateRows, isDecimal, stringList, type AreaRateRow, type EntityFormValues } from './entity-form-schema';
import { useEntityKitT } from './use-entity-kit';

const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7', '8'];

export interface EntityFieldProps {
  field: FormField;
  control: Control<EntityFormValues>;
  error: FieldError | undefined;
  /** The error as the user reads it (translated form rule or contract message). */
  errorText: (error: FieldError | undefined) => string | undefined;
  /** The uuid of the entity being edited: it is not offered as a reference to itself. */
  self?: string;
}

/** One input of a registration form, chosen by the descriptor's input kind. */
export function EntityFieldInput({ field, control, error, errorText, self }: EntityFieldProps) {
  const { t } = useEntityKitT();
  const label = t(`field.${field.name}`, { defaultValue: field.name });
  const common = { label, withAsterisk: field.required, error: errorText(error) };
  const name = `fields.${field.name}` as const;

  switch (field.input) {
    case 'reference':
    case 'references':
      return <ReferenceInput field={field} control={control} common={common} self={self} />;
    case 'areaRates':
      return <AreaRatesInput field={field} control={control} common={common} />;
    case 'boolean':
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => (
            <Checkbox
              mt="lg"
              label={label}
              checked={f.value === true}
              onChange={(e) => f.onChange(e.currentTarget.checked)}
              onBlur={f.onBlur}
              error={common.error}
            />
          )}
        />
      );
    case 'date':
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => (
            <DayInput
              label={label}
              error={common.error}
              required={field.required}
              clearable
              value={typeof f.value === 'string' && f.value !== '' ? f.value : null}
              onChange={(day) => f.onChange(day ?? '')}
              onBlur={f.onBlur}
            />
          )}
        />
      );
    case 'weekdays':
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => (
            <MultiSelect
              {...common}
              data={WEEKDAYS.map((d) => ({ value: d, label: t(`weekday.${d}`) }))}
              value={stringList(f.value)}
              onChange={f.onChange}
              onBlur={f.onBlur}
            />
          )}
        />
      );
    case 'enum':
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => (
            <Select
              {...common}
              placeholder={t('please_select')}
              nothingFoundMessage={t('no_options')}
              data={[...(field.options ?? [])].map((o) => ({ value: o, label: o })).sort(byName)}
              value={typeof f.value === 'string' && f.value !== '' ? f.value : null}
              onChange={(v) => f.onChange(v ?? '')}
              onBlur={f.onBlur}
            />
          )}
        />
      );
    default:
      return (
        <Controller
          control={control}
          name={name}
          render={({ field: f }) => {
            const props = {
              ...common,
              name: f.name,
              ref: f.ref,
              value: typeof f.value === 'string' ? f.value : '',
              onChange: (e: { currentTarget: { value: string } }) => f.onChange(e.currentTarget.value),
              onBlur: f.onBlur,
            };
            if (field.input === 'textarea') return <Textarea {...props} autosize minRows={1} />;
            return (
              <TextInput
                {...props}
                inputMode={field.input === 'number' ? 'decimal' : field.input === 'integer' ? 'numeric' : undefined}
                placeholder={
                  field.input === 'location' ? t('placeholder.location') : field.input === 'time' ? 'HH:mm' : undefined
                }
              />
            );
          }}
        />
      );
  }
}

/** A picker over the entities of the field's target kinds (GET /domain/{type}/minimal/all), sorted by name. */
function ReferenceInput({
  field,
  control,
  common,
  self,
}: {
  field: FormField;
  control: Control<EntityFormValues>;
  common: { label: string; withAsterisk: boolean; error: string | undefined };
  self?: string;
}) {
  const { t } = useEntityKitT();
  const options = useTargetOptions(field, self);
  return (
    <Controller
      control={control}
      name={`fields.${field.name}`}
      render={({ field: f }) =>
        field.input === 'references' ? (
          <MultiSelect
            {...common}
            searchable
            placeholder={t('please_select')}
            nothingFoundMessage={t('no_options')}
            data={options}
            value={stringList(f.value)}
            onChange={f.onChange}
            onBlur={f.onBlur}
          />
        ) : (
          <Select
            {...common}
            searchable
            clearable={!field.required}
            placeholder={t('please_select')}
            nothingFoundMessage={t('no_options')}
            data={options}
            value={typeof f.value === 'string' && f.value !== '' ? f.value : null}
            onChange={(v) => f.onChange(v ?? '')}
            onBlur={f.onBlur}
          />
        )
      }
    />
  );
}

/** The options of a field's target kinds (GET /domain/{type}/minimal/all) as a Select's data, sorted by name. */
function useTargetOptions(field: FormField, self?: string) {
  const { entities } = useMinimalEntities(field.targets ?? []);
  return entities
    .filter((e) => e.uuid !== self)
    .map((e) => ({ value: e.uuid, label: e.name }))
    .sort(byName);
}

/**
 * Rates that differ by area (a tax category's taxAreaRates): one row per area with the area picked
 * from the field's targets and the rate typed, a remove button per row and one to add a row. The
 * list's message (a row without area, a rate that is no decimal, an area named twice) shows below.
 */
function AreaRatesInput({
  field,
  control,
  common,
}: {
  field: FormField;
  control: Control<EntityFormValues>;
  common: { label: string; withAsterisk: boolean; error: string | undefined };
}) {
  const { t } = useEntityKitT();
  const options = useTargetOptions(field);
  return (
    <Controller
      control={control}
      name={`fields.${field.name}`}
      render={({ field: f }) => {
        const rows = areaRateRows(f.value);
        const change = (next: AreaRateRow[]) => f.onChange(next);
        const update = (index: number, patch: Partial<AreaRateRow>) =>
          change(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
        return (
          <Input.Wrapper
            label={common.label}
            withAsterisk={common.withAsterisk}
            error={common.error}
            data-testid={`area-rates-${field.name}`}
          >
            <Stack gap="xs" mt={4}>
              {rows.map((row, i) => (
                <Group key={i} gap="xs" wrap="nowrap" align="flex-start" data-testid="area-rate-row">
                  <Select
                    aria-label={t('area_rates.area', { number: i + 1 })}
                    searchable
                    placeholder={t('please_select')}
                    nothingFoundMessage={t('no_options')}
                    data={options}
                    value={row.taxAreaRef === '' ? null : row.taxAreaRef}
                    onChange={(v) => update(i, { taxAreaRef: v ?? '' })}
                    onBlur={f.onBlur}
                    error={Boolean(common.error) && row.taxAreaRef === '' && row.rate.trim() !== ''}
                    flex={2}
                  />
                  <TextInput
                    aria-label={t('area_rates.rate', { number: i + 1 })}
                    inputMode="decimal"
                    value={row.rate}
                    onChange={(e) => update(i, { rate: e.currentTarget.value })}
                    onBlur={f.onBlur}
                    error={Boolean(common.error) && row.taxAreaRef !== '' && !isDecimal(row.rate)}
                    flex={1}
                  />
                  <CloseButton
                    aria-label={t('area_rates.remove', { number: i + 1 })}
                    mt={6}
                    onClick={() => change(rows.filter((_, j) => j !== i))}
                  />
                </Group>
              ))}
              <Group>
                <Button variant="light" size="xs" onClick={() => change([...rows, { taxAreaRef: '', rate: '' }])}>
                  {t('area_rates.add')}
                </Button>
              </Group>
            </Stack>
          </Input.Wrapper>
        );
      }}
    />
  );
}
