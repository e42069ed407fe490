import { useEffect, useRef, useState } from 'react';
import {
  Button,
  Checkbox,
  FileInput,
  Group,
  NumberInput,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import {
  backupPathAllowed,
  INTERFACE_DIRECTIONS,
  INTERFACE_SERVER_TYPES,
  INTERFACE_TYPES,
  type InterfaceRoute,
  type InterfaceRouteTestResult,
} from '@railwatt/contracts';
import { ApiError, apiErrorMessages } from '../../../../lib/errors';
import { interfaceTypesQuery, useSaveInterfaceRoute, useTestConnection } from '../../api/interfaces';
import {
  interfaceFormSchema,
  ruleKeyOf,
  sameServer,
  toRouteBody,
  type InterfaceFormInput,
  type InterfaceFormOutput,
} from './interface-form-schema';
import { TestConnectionResult } from './test-connection-result';
import { useInterfacesT } from './use-interfaces-t';
import { ServerErrors } from '../../../../components/ui/api-error';

/** A small text file's content (FileReader: also where Blob.text is missing). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

export interface InterfaceFormProps {
  initial: InterfaceFormInput;
  /** Editing a stored route: the route id is fixed and credentials stay unless replaced. */
  editing: boolean;
  onSaved: (route: InterfaceRoute) => void;
}

/** The route editor of the registration page and the exchange area's configuration page. */
export function InterfaceForm({ initial, editing, onSaved }: InterfaceFormProps) {
  const { t, tRoot } = useInterfacesT();
  const types = useQuery(interfaceTypesQuery());
  const save = useSaveInterfaceRoute();
  const test = useTestConnection();
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const [testResult, setTestResult] = useState<{ result: InterfaceRouteTestResult; hostKeyFilled: boolean } | null>(
    null,
  );
  const form = useForm<InterfaceFormInput, unknown, InterfaceFormOutput>({
    resolver: zodResolver(interfaceFormSchema),
    defaultValues: initial,
    mode: 'onTouched',
  });
  const { register, control, watch, formState, setValue, getValues } = form;
  const [direction, serverType, credentialsKind, replaceCredentials, hostname, port] = watch([
    'direction',
    'serverType',
    'credentialsKind',
    'replaceCredentials',
    'hostname',
    'port',
  ]);
  const showBackupPath = backupPathAllowed({ direction, serverType });
  // A backup path exists only for INTERNAL + IN (product.md §5): a hidden one is dropped, not sent.
  useEffect(() => {
    if (!showBackupPath) setValue('backupPath', '', { shouldValidate: formState.isSubmitted });
  }, [showBackupPath, setValue, formState.isSubmitted]);

  // A host key belongs to the server it was met on (the stored route's, or the one a test reached).
  // When hostname or port name another server, a field still holding that key is cleared: the new
  // server has its own (saved empty, the route's next connection pins the key it meets). Back on the
  // same server, a key cleared this way returns, so a mistyped and corrected hostname keeps the pin.
  const keyOwner = useRef({
    hostname: initial.hostname,
    port: initial.port,
    key: initial.hostKeyFingerprint ?? '',
    cleared: false,
  });
  useEffect(() => {
    const owner = keyOwner.current;
    if (!owner.key) return;
    const shown = getValues('hostKeyFingerprint') ?? '';
    if (!sameServer(owner, { hostname, port }) && shown === owner.key) {
      setValue('hostKeyFingerprint', '', { shouldDirty: true });
      owner.cleared = true;
    } else if (sameServer(owner, { hostname, port }) && owner.cleared && shown === '') {
      setValue('hostKeyFingerprint', owner.key, { shouldDirty: true });
      owner.cleared = false;
    }
  }, [hostname, port, getValues, setValue]);

  /** A field's error in the user's language: the contract's rules by key, a missing value as required. */
  const errorText = (field: string, error: FieldError | undefined): string | undefined => {
    if (!error) return undefined;
    if (error.type === 'server') return error.message;
    const rule = ruleKeyOf(error.message);
    if (rule) return t(`rules.${rule}`);
    if (['too_small', 'invalid_type', 'invalid_value'].includes(String(error.type)) || error.message === 'required') {
      return t('rules.required', { field: t(`field.${field}`) });
    }
    return error.message;
  };
  const fieldError = (name: keyof InterfaceFormInput) =>
    errorText(name, formState.errors[name] as FieldError | undefined);

  const showServerError = (error: unknown) => {
    // A refusal naming a field goes on the field; the rest is listed above the buttons.
    if (error instanceof ApiError && error.envelope?.errors) {
      const rest: string[] = [];
      for (const e of error.envelope.errors) {
        const field = e.field as keyof InterfaceFormInput | undefined;
        if (field && field in initial)
          form.setError(field, {
            type: 'server',
            message: t(`rules.${ruleKeyOf(e.message) ?? ''}`, { defaultValue: e.message }),
          });
        else rest.push(e.message);
      }
      setServerErrors(rest);
      return;
    }
    setServerErrors(apiErrorMessages(error, tRoot));
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setServerErrors([]);
    const body = toRouteBody(values);
    try {
      const saved = editing
        ? await save.mutateAsync({ create: false, route: body })
        : await save.mutateAsync({ create: true, route: { ...body, credentials: body.credentials! } });
      onSaved(saved);
    } catch (error) {
      showServerError(error);
    }
  });

  const onTest = form.handleSubmit(async (values) => {
    setServerErrors([]);
    setTestResult(null);
    try {
      const result = await test.mutateAsync({ route: toRouteBody(values) });
      // An empty field takes the key the server presented (accept-new), so saving pins it; unless
      // the form names another server by now.
      const seen = result.hostKeyFingerprint;
      const hostKeyFilled =
        seen !== undefined && (getValues('hostKeyFingerprint') ?? '').trim() === '' && sameServer(values, getValues());
      if (hostKeyFilled) {
        setValue('hostKeyFingerprint', seen, { shouldDirty: true, shouldValidate: true });
        keyOwner.current = { hostname: values.hostname, port: values.port, key: seen, cleared: false };
      }
      setTestResult({ result, hostKeyFilled });
    } catch (error) {
      showServerError(error);
    }
  });

  const readKeyFile = async (file: File | null) => {
    if (!file) return;
    setValue('privateKey', (await readText(file)).trim(), { shouldValidate: true, shouldDirty: true });
  };

  const typeOptions = (types.data ?? INTERFACE_TYPES).map((value) => ({
    value,
    label: t(`type.${value}`, { defaultValue: value }),
  }));

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate data-testid="interface-form">
      <Stack gap="md" maw={900}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t('field.routeId')}
            required
            disabled={editing}
            {...register('routeId')}
            error={fieldError('routeId')}
          />
          <Controller
            control={control}
            name="interfaceType"
            render={({ field }) => (
              <Select
                label={t('field.interfaceType')}
                required
                data={typeOptions}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
                error={fieldError('interfaceType')}
              />
            )}
          />
          <Controller
            control={control}
            name="direction"
            render={({ field }) => (
              <Select
                label={t('field.direction')}
                required
                allowDeselect={false}
                data={INTERFACE_DIRECTIONS.map((value) => ({ value, label: t(`direction.${value}`) }))}
                value={field.value}
                onChange={(v) => field.onChange(v ?? 'IN')}
                error={fieldError('direction')}
              />
            )}
          />
          <Controller
            control={control}
            name="serverType"
            render={({ field }) => (
              <Select
                label={t('field.serverType')}
                required
                allowDeselect={false}
                data={INTERFACE_SERVER_TYPES.map((value) => ({ value, label: t(`serverType.${value}`) }))}
                value={field.value}
                onChange={(v) => field.onChange(v ?? 'EXTERNAL')}
                error={fieldError('serverType')}
              />
            )}
          />
          <TextInput label={t('field.hostname')} required {...register('hostname')} error={fieldError('hostname')} />
          <Controller
            control={control}
            name="port"
            render={({ field }) => (
              <NumberInput
                label={t('field.port')}
                min={1}
                max={65535}
                allowDecimal={false}
                value={field.value ?? ''}
                onChange={(v) => field.onChange(typeof v === 'number' ? v : undefined)}
                error={fieldError('port')}
              />
            )}
          />
          <TextInput label={t('field.username')} required {...register('username')} error={fieldError('username')} />
          <TextInput
            label={t('field.path')}
            description={t('help.path')}
            required
            {...register('path')}
            error={fieldError('path')}
          />
          {showBackupPath && (
            <TextInput
              label={t('field.backupPath')}
              description={t('help.backupPath')}
              {...register('backupPath')}
              error={fieldError('backupPath')}
            />
          )}
          <TextInput label={t('field.folder')} {...register('folder')} error={fieldError('folder')} />
          <Controller
            control={control}
            name="subFolders"
            render={({ field }) => (
              <TagsInput
                label={t('field.subFolders')}
                description={t('help.subFolders')}
                value={field.value ?? []}
                onChange={field.onChange}
                error={fieldError('subFolders')}
              />
            )}
          />
        </SimpleGrid>
        <TextInput
          id="hostKeyFingerprint"
          data-testid="hostKeyFingerprint"
          label={t('field.hostKeyFingerprint')}
          description={t('help.hostKeyFingerprint')}
          placeholder={t('hostKey.not_pinned')}
          spellCheck={false}
          autoComplete="off"
          styles={{ input: { fontFamily: 'monospace' } }}
          {...register('hostKeyFingerprint')}
          error={fieldError('hostKeyFingerprint')}
        />
        <Textarea label={t('field.description')} autosize minRows={2} {...register('description')} />
        <Controller
          control={control}
          name="enabled"
          render={({ field }) => (
            <Switch
              label={t('field.enabled')}
              checked={field.value ?? true}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
            />
          )}
        />

        <Stack gap="xs" data-testid="credentials">
          {editing && (
            <Controller
              control={control}
              name="replaceCredentials"
              render={({ field }) => (
                <Checkbox
                  label={t('credentials.replace', { kind: t(`credentials.kind.${initial.credentialsKind}`) })}
                  checked={field.value}
                  onChange={(e) => field.onChange(e.currentTarget.checked)}
                />
              )}
            />
          )}
          {replaceCredentials && (
            <>
              <Controller
                control={control}
                name="credentialsKind"
                render={({ field }) => (
                  <SegmentedControl
                    aria-label={t('credentials.kind_label')}
                    value={field.value}
                    onChange={field.onChange}
                    data={[
                      { value: 'password', label: t('credentials.kind.password') },
                      { value: 'privateKey', label: t('credentials.kind.privateKey') },
                    ]}
                  />
                )}
              />
              {credentialsKind === 'password' ? (
                <PasswordInput
                  label={t('field.password')}
                  required
                  autoComplete="new-password"
                  {...register('password')}
                  error={fieldError('password')}
                />
              ) : (
                <>
                  <FileInput
                    label={t('credentials.key_file')}
                    placeholder={t('credentials.key_file_placeholder')}
                    clearable
                    onChange={(file) => void readKeyFile(file)}
                  />
                  <Textarea
                    label={t('field.privateKey')}
                    description={t('help.privateKey')}
                    required
                    autosize
                    minRows={4}
                    maxRows={12}
                    spellCheck={false}
                    styles={{ input: { fontFamily: 'monospace' } }}
                    {...register('privateKey')}
                    error={fieldError('privateKey')}
                  />
                  <PasswordInput
                    label={t('field.passphrase')}
                    autoComplete="new-password"
                    {...register('passphrase')}
                  />
                </>
              )}
            </>
          )}
        </Stack>

        <Textarea label={t('field.changeComment')} autosize minRows={2} {...register('changeComment')} />

        <ServerErrors messages={serverErrors} testId="interface-form-errors" />
        {testResult && <TestConnectionResult result={testResult.result} hostKeyFilled={testResult.hostKeyFilled} />}

        <Group>
          <Button type="submit" loading={save.isPending}>
            {t('form.save')}
          </Button>
          <Button variant="outline" onClick={() => void onTest()} loading={test.isPending}>
            {t('form.test_connection')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
