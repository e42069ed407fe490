import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { useTranslation } from 'react-i18next';
import type { StatusAction } from '@railwatt/contracts';
import { DayInput } from './day-input';

/**
 * The range check of product.md §5: the message sits on the field the user is looking at; both
 * messages are i18n keys whose English text is verbatim from the spec.
 */
const setStatusFormSchema = z
  .object({
    from: z.string({ error: 'setstatus.validation.from_required' }).min(1, 'setstatus.validation.from_required'),
    to: z.string().nullable(),
    comment: z.string(),
  })
  .superRefine((value, ctx) => {
    if (value.from && value.to && value.from >= value.to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'setstatus.validation.from_before_to' });
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'setstatus.validation.to_after_from' });
    }
  });

export type SetStatusFormValues = z.infer<typeof setStatusFormSchema>;

export interface SetStatusDialogProps {
  opened: boolean;
  onClose: () => void;
  action: StatusAction | null;
  /** How many entities the change applies to. */
  count: number;
  /** Days as 'YYYY-MM-DD' (to = null: open end); the caller turns them into instants. */
  onSubmit: (values: SetStatusFormValues) => Promise<void> | void;
  submitting?: boolean;
  /** The first day offered; defaults to today. */
  defaultFrom?: string;
}

const today = () => new Date().toISOString().slice(0, 10);

/** The set-status dialog (product.md §4): a validity range and a comment for every selected entity. */
export function SetStatusDialog({
  opened,
  onClose,
  action,
  count,
  onSubmit,
  submitting,
  defaultFrom,
}: SetStatusDialogProps) {
  const { t } = useTranslation();
  const form = useForm<SetStatusFormValues>({
    resolver: zodResolver(setStatusFormSchema),
    defaultValues: { from: defaultFrom ?? today(), to: null, comment: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const message = (key: string | undefined) => (key ? t(key) : undefined);

  const close = () => {
    form.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened && action !== null}
      onClose={close}
      title={action ? t(`setstatus.title.${action}`) : ''}
      data-testid="set-status-dialog"
    >
      <form
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          await onSubmit(values);
          form.reset();
        })}
      >
        <Stack gap="sm">
          <Text size="sm">{t('setstatus.applies_to', { count })}</Text>
          <Controller
            control={form.control}
            name="from"
            render={({ field }) => (
              <DayInput
                label={t('setstatus.valid_from')}
                required
                value={field.value || null}
                onChange={(day) => {
                  field.onChange(day ?? '');
                  if (form.formState.isSubmitted) void form.trigger(['from', 'to']);
                }}
                onBlur={field.onBlur}
                error={message(errors.from?.message)}
                data-testid="set-status-from"
              />
            )}
          />
          <Controller
            control={form.control}
            name="to"
            render={({ field }) => (
              <DayInput
                label={t('setstatus.valid_to')}
                clearable
                value={field.value}
                onChange={(day) => {
                  field.onChange(day);
                  if (form.formState.isSubmitted) void form.trigger(['from', 'to']);
                }}
                onBlur={field.onBlur}
                error={message(errors.to?.message)}
                data-testid="set-status-to"
              />
            )}
          />
          <Textarea label={t('setstatus.comment')} autosize minRows={2} {...form.register('comment')} />
          <Group justify="flex-end">
            <Button variant="subtle" onClick={close}>
              {t('setstatus.cancel')}
            </Button>
            <Button type="submit" loading={submitting} disabled={count === 0}>
              {t('setstatus.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
