import { useState } from 'react';
import { Button, Group, NumberInput, Paper } from '@mantine/core';
import { MonthPickerInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import type { EntityRef, TimeSeriesTypeName } from '@railwatt/contracts';
import { useErrorModal } from '../../../../components/ui/api-error';
import { useModalStore } from '../../../../lib/stores/modal-store';
import { useInvalidateParameter, useSaveParameter } from '../../api/parameter-overview-queries';
import { useParametersT } from '../../hooks/use-parameters-t';
import { monthCount, monthLabel, monthsInZone, monthToPicker, pickerToMonth, type Month } from './parameter-months';

/** The bounds of a value (the contract's parameterSaveSchema). */
const VALUE_BOUND = 1e9;

export interface ParameterWriteBarProps {
  area: string;
  timeZone: string;
  typeName: TimeSeriesTypeName;
  /** The type's label: the failed-remove message names it (calls.md §8). */
  typeLabel: string;
  /** The selected rows' entities. */
  refs: readonly EntityRef[];
  value: number | string;
  onValueChange: (value: number | string) => void;
  /** The period's default: the shown months (the parent keys this bar by them, so it starts afresh). */
  defaultFrom: Month;
  defaultTo: Month;
}

/**
 * The writers' controls of the parameter overview: a value, a period of months (the shown range by
 * default) and Save (the value for every month of the period of each selected entity) or Remove (their
 * values of the period, after a yes). Nothing selected is refused in the spec's words; a saved or
 * removed change is confirmed, and the overview's table of the type is read again.
 */
export function ParameterWriteBar(props: ParameterWriteBarProps) {
  const { area, timeZone, typeName, typeLabel, refs, value, onValueChange } = props;
  const { t } = useParametersT();
  const openModal = useModalStore((s) => s.open);
  const showError = useErrorModal();
  const save = useSaveParameter(area);
  const invalidate = useInvalidateParameter(area);
  const [from, setFrom] = useState<Month>(props.defaultFrom);
  const [to, setTo] = useState<Month>(props.defaultTo);
  const [valueError, setValueError] = useState<string | null>(null);
  const ordered = monthCount(from, to) >= 1;

  /** The selection to write, or null after saying that nothing is selected (or the period is reversed). */
  const target = () => {
    if (refs.length === 0) {
      openModal({ type: 'error', message: t('messages.noEntitiesSelected') });
      return null;
    }
    if (!ordered) return null;
    return {
      typeName,
      refs: refs.map(({ uuid, type }) => ({ uuid, type })),
      timeRange: monthsInZone(from, to, timeZone),
    };
  };

  const onSave = () => {
    const request = target();
    if (!request) return;
    if (typeof value !== 'number') {
      setValueError(t('write.valueRequired'));
      return;
    }
    save.mutate(
      { ...request, value },
      {
        // Short notices after a write went through; dialogs stay for questions and errors.
        onSuccess: (answer) =>
          notifications.show({ color: 'green', message: t('messages.saved', { count: answer.values }) }),
        onError: (error) => showError(error),
      },
    );
  };

  const onRemove = () => {
    const request = target();
    if (!request) return;
    openModal({
      type: 'userConfirmation',
      message: t('messages.removeQuestion', {
        count: request.refs.length,
        from: monthLabel(from),
        to: monthLabel(to),
      }),
      yesAction: () => {
        invalidate.mutateAsync(request).then(
          (answer) => notifications.show({ color: 'green', message: t('messages.removed', { count: answer.values }) }),
          // calls.md §8: this failure has its own words, naming the type.
          () => openModal({ type: 'error', message: t('messages.invalidateFailed', { name: typeLabel }) }),
        );
      },
    });
  };

  return (
    <Paper withBorder p="sm">
      <Group align="flex-start" gap="sm">
        <NumberInput
          label={t('write.value')}
          value={value}
          onChange={(next) => {
            onValueChange(next);
            setValueError(null);
          }}
          decimalScale={6}
          min={-VALUE_BOUND}
          max={VALUE_BOUND}
          clampBehavior="strict"
          error={valueError}
          w={180}
          data-testid="parameter-value"
        />
        <MonthPickerInput
          label={t('write.from')}
          value={monthToPicker(from)}
          onChange={(next) => setFrom(pickerToMonth(next) ?? from)}
          valueFormat="MM.YYYY"
          minDate="1970-01-01"
          maxDate="2069-12-31"
          w={140}
          data-testid="parameter-period-from"
        />
        <MonthPickerInput
          label={t('write.to')}
          value={monthToPicker(to)}
          onChange={(next) => setTo(pickerToMonth(next) ?? to)}
          valueFormat="MM.YYYY"
          minDate="1970-01-01"
          maxDate="2069-12-31"
          error={ordered ? undefined : t('range.order')}
          w={140}
          data-testid="parameter-period-to"
        />
        <Group gap="xs" mt={25}>
          <Button
            onClick={onSave}
            loading={save.isPending}
            disabled={invalidate.isPending}
            data-testid="parameter-save"
          >
            {t('write.save')}
          </Button>
          <Button
            color="red"
            variant="outline"
            onClick={onRemove}
            loading={invalidate.isPending}
            disabled={save.isPending}
            data-testid="parameter-remove"
          >
            {t('write.remove')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}
