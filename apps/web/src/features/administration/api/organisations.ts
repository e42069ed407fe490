import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  domainCalls,
  EXCEL_IMPORT_FIELD,
  excelCalls,
  EXPORT_FILE_NAMES,
  MESSAGES,
  organisationCalls,
  serviceAccountFileSchema,
  type OrganisationType,
  type SaveEntity,
} from '@railwatt/contracts';
import { outcomeFromImportAnswer, type UploadFn } from '../../../components/ui/upload-dialog';
import { api } from '../../../lib/api';
import { ApiError, apiErrorMessages, isCancelled, type Translate } from '../../../lib/errors';
import { saveBlob } from '../../../lib/download';

/**
 * Organisations of the Administration section: the generic entity calls for the kind
 * 'organisation' (list, one, save), the organisation calls of calls.md §7 (branches, exchange admins,
 * types with credentials) and the organisation workbooks (import-org, exportedorganisations.xlsx).
 */
export const organisationKeys = {
  all: ['administration', 'organisations'] as const,
  lists: () => [...organisationKeys.all, 'list'] as const,
  list: (includeInactive: boolean) => [...organisationKeys.lists(), { includeInactive }] as const,
  one: (uuid: string) => [...organisationKeys.all, 'one', uuid] as const,
  exchangeAdmins: () => [...organisationKeys.all, 'exchange-admins'] as const,
  branches: () => [...organisationKeys.all, 'branches'] as const,
};

export const organisationListQuery = (includeInactive: boolean) =>
  queryOptions({
    queryKey: organisationKeys.list(includeInactive),
    queryFn: ({ signal }) =>
      api.call(domainCalls.organisations, { query: { includeInactive }, signal, key: 'organisation-overview' }),
  });

export const organisationQuery = (uuid: string) =>
  queryOptions({
    queryKey: organisationKeys.one(uuid),
    queryFn: ({ signal }) => api.call(domainCalls.byId, { params: { type: 'organisation', uuid }, signal }),
  });

export const exchangeAdminsQuery = () =>
  queryOptions({
    queryKey: organisationKeys.exchangeAdmins(),
    queryFn: ({ signal }) =>
      api.call(domainCalls.organisationsOfType, { params: { orgType: 'exchangeadmin' }, signal }),
    staleTime: 60_000,
  });

export const branchesQuery = () =>
  queryOptions({
    queryKey: organisationKeys.branches(),
    queryFn: ({ signal }) => api.call(domainCalls.organisationBranches, { signal }),
    staleTime: 60_000,
  });

/** POST /domain/save with type Organisation (a new version from timeRange.start). */
export function useSaveOrganisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SaveEntity) => api.call(domainCalls.save, { body }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: organisationKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: organisationKeys.branches() });
      void queryClient.invalidateQueries({ queryKey: organisationKeys.exchangeAdmins() });
      void queryClient.invalidateQueries({ queryKey: organisationKeys.one(saved.uuid) });
    },
  });
}

/** exportedorganisations.xlsx of the selected organisations (the caller refuses an empty selection). */
export async function exportOrganisations(uuids: string[]) {
  saveBlob(await api.call(excelCalls.organisationExport, { body: { uuids } }), EXPORT_FILE_NAMES.organisations);
}

/** The message for a file whose upload failed as a whole (calls.md §8 "Upload failures"). */
function uploadFailureMessage(error: unknown, t: Translate, tRoot: Translate): string {
  if (error instanceof ApiError) {
    if (error.status === 400) {
      return (
        error.envelope?.message?.trim() ||
        apiErrorMessages(error, tRoot).join(' ') ||
        t('organisations.import.error.bad_data')
      );
    }
    if (error.status === 401 || error.status === 403) return t('organisations.import.error.not_authorized');
  }
  return t('organisations.import.error.unknown');
}

/** POST /excel/domain/import-org, one file per request (organisation_upload). */
export function createOrganisationsUpload(t: Translate, tRoot: Translate): UploadFn {
  return async (file, onProgress) => {
    const form = new FormData();
    form.append(EXCEL_IMPORT_FIELD, file, file.name);
    try {
      return outcomeFromImportAnswer(await api.callUpload(excelCalls.organisationImport, form, { onProgress }));
    } catch (error) {
      if (isCancelled(error)) throw error;
      return { status: 'failed', failures: [], message: uploadFailureMessage(error, t, tRoot) };
    }
  };
}

/** The text of a chosen file (FileReader: every browser, and the test DOM, which lacks Blob.text). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsText(file);
  });
}

/**
 * The service-account upload (serviceaccount_upload) of one organisation: the file's text must be
 * valid JSON holding the credentials. The same contract schema the server applies is checked here
 * first, so a bad file is refused before it is sent ('The file content is not valid JSON'); a good
 * one goes to POST /domain/organisations/organisationtype-with-credentials as serviceAccountFile.
 */
export function createServiceAccountUpload(
  organisation: { uuid: string; organisationTypes: readonly OrganisationType[] },
  t: Translate,
  tRoot: Translate,
): UploadFn {
  return async (file, onProgress) => {
    const content = await readText(file);
    const checked = serviceAccountFileSchema.safeParse(content);
    if (!checked.success) {
      const invalidJson = t('organisations.credentials.invalid_json');
      const issue = checked.error.issues[0];
      const message = issue?.message === MESSAGES.invalidJson ? invalidJson : (issue?.message ?? invalidJson);
      return { status: 'failed', failures: [], message };
    }
    onProgress({ loaded: 0, total: file.size });
    try {
      await api.call(organisationCalls.typeWithCredentials, {
        body: {
          uuid: organisation.uuid,
          organisationTypes: [...organisation.organisationTypes],
          serviceAccountFile: content,
        },
      });
      onProgress({ loaded: file.size, total: file.size });
      return { status: 'finished', failures: [] };
    } catch (error) {
      if (isCancelled(error)) throw error;
      return { status: 'failed', failures: [], message: uploadFailureMessage(error, t, tRoot) };
    }
  };
}
