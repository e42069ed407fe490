import { queryOptions, useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import {
  domainCalls,
  EXCEL_IMPORT_FIELD,
  excelCalls,
  EXPORT_FILE_NAMES,
  type EntityKind,
  type MinimalEntity,
  type SaveEntity,
  type StatusChangeRequest,
} from '@railwatt/contracts';
import { api } from '../../../lib/api';
import { ApiError, isCancelled } from '../../../lib/errors';
import { outcomeFromImportAnswer, type UploadFn } from '../upload-dialog';
import { saveBlob } from '../../../lib/download';

/**
 * Query keys of the entity kit, narrowest last, so a mutation invalidates exactly what it touched.
 * One key space for every section: an infrastructure save refreshes the administration pickers too.
 */
export const entityKitKeys = {
  all: ['entity-kit'] as const,
  lists: () => [...entityKitKeys.all, 'list'] as const,
  list: (kind: string, includeInactive: boolean) => [...entityKitKeys.lists(), kind, { includeInactive }] as const,
  minimal: (kind: string) => [...entityKitKeys.all, 'minimal', kind] as const,
  entity: (kind: string, uuid: string) => [...entityKitKeys.all, 'entity', kind, uuid] as const,
  versions: (kind: string, uuid: string) => [...entityKitKeys.all, 'versions', kind, uuid] as const,
};

/** GET /domain/{type}/all: the overview's rows (latest segment merged onto each entity). */
export const entityListQuery = (kind: string, includeInactive: boolean) =>
  queryOptions({
    queryKey: entityKitKeys.list(kind, includeInactive),
    queryFn: ({ signal }) =>
      api.call(domainCalls.all, { params: { type: kind }, query: { includeInactive }, signal, key: 'entity-overview' }),
  });

/** GET /domain/{type}/minimal/all: reference pickers and names of referenced entities. */
export const minimalListQuery = (kind: string) =>
  queryOptions({
    queryKey: entityKitKeys.minimal(kind),
    queryFn: ({ signal }) =>
      api.call(domainCalls.minimalAll, { params: { type: kind }, query: { includeInactive: true }, signal }),
    staleTime: 60_000,
  });

export const entityByIdQuery = (kind: string, uuid: string) =>
  queryOptions({
    queryKey: entityKitKeys.entity(kind, uuid),
    queryFn: ({ signal }) => api.call(domainCalls.byId, { params: { type: kind, uuid }, signal }),
  });

/** GET /domain/{type}/versions/{uuid}: every segment, superseded ones included. */
export const entityVersionsQuery = (kind: string, uuid: string) =>
  queryOptions({
    queryKey: entityKitKeys.versions(kind, uuid),
    queryFn: ({ signal }) => api.call(domainCalls.versions, { params: { type: kind, uuid }, signal }),
  });

/** Options of reference pickers sorted by name (numeric, case-insensitive; product.md §5). */
export const byName = (a: { label: string }, b: { label: string }) =>
  a.label.localeCompare(b.label, undefined, { numeric: true, sensitivity: 'base' });

/** The entities of several kinds (a reference may name any of its targets), and a uuid -> name lookup. */
export function useMinimalEntities(kinds: readonly EntityKind[]) {
  const results = useQueries({ queries: [...new Set(kinds)].map((k) => minimalListQuery(k)) });
  const entities: MinimalEntity[] = results.flatMap((r) => r.data ?? []);
  return { entities, pending: results.some((r) => r.isPending) };
}

export function useSaveEntity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (record: SaveEntity) => api.call(domainCalls.save, { body: record }),
    onSuccess: (saved) => {
      const kind = saved.type.toLowerCase();
      void queryClient.invalidateQueries({ queryKey: entityKitKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: entityKitKeys.minimal(kind) });
      void queryClient.invalidateQueries({ queryKey: entityKitKeys.entity(kind, saved.uuid) });
      void queryClient.invalidateQueries({ queryKey: entityKitKeys.versions(kind, saved.uuid) });
    },
  });
}

/** POST /domain/status for the selected entities (the set-status dialog). */
export function useEntityStatusChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: StatusChangeRequest) => api.call(domainCalls.status, { body: request }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: entityKitKeys.all }),
  });
}

/** POST /excel/domain/export of the selected entities: exportedentities.xlsx. */
export async function exportEntities(uuids: string[]) {
  saveBlob(await api.call(excelCalls.domainExport, { body: { uuids } }), EXPORT_FILE_NAMES.entities);
}

/**
 * POST /excel/domain/import, one file per request with its own progress. A 400 carries the server's
 * reason, shown as sent; the generic texts (calls.md §8 "Upload failures") cover the rest.
 */
export function createEntitiesUpload(translate: (key: string) => string): UploadFn {
  return async (file, onProgress) => {
    const form = new FormData();
    form.append(EXCEL_IMPORT_FIELD, file, file.name);
    try {
      return outcomeFromImportAnswer(await api.callUpload(excelCalls.domainImport, form, { onProgress }));
    } catch (error) {
      if (isCancelled(error)) throw error;
      let message = translate('import.error.unknown');
      if (error instanceof ApiError && error.status === 400) {
        message = error.envelope?.message?.trim() || translate('import.error.bad_data');
      } else if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        message = translate('import.error.not_authorized');
      }
      return { status: 'failed', failures: [], message };
    }
  };
}
