import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { processingConfigCalls, type ConfigProcedure, type ProcessingConfigSave } from '@railwatt/contracts';
import { api } from '../../../lib/api';

/** Query keys of the processing configurations; a save refreshes its procedure and every history. */
export const configKeys = {
  all: ['processing-config'] as const,
  list: (procedure: string, tpa: boolean) => [...configKeys.all, 'list', procedure, { tpa }] as const,
  versions: (uuid: string) => [...configKeys.all, 'versions', uuid] as const,
};

/** GET /domain/processing-config/{procedure}: the versions and the one in use now. */
export const configListQuery = (procedure: ConfigProcedure, tpa = false) =>
  queryOptions({
    queryKey: configKeys.list(procedure, tpa),
    queryFn: ({ signal }) => api.call(processingConfigCalls.list, { params: { procedure }, query: { tpa }, signal }),
  });

/** GET /domain/settlementconfiguration/versions/{uuid}: every version, superseded ones marked. */
export const configVersionsQuery = (uuid: string) =>
  queryOptions({
    queryKey: configKeys.versions(uuid),
    queryFn: ({ signal }) => api.call(processingConfigCalls.versions, { params: { uuid }, signal }),
  });

/** POST /domain/processing-config/{procedure}: a version from a date. */
export function useSaveConfig(procedure: ConfigProcedure) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProcessingConfigSave) => api.call(processingConfigCalls.save, { params: { procedure }, body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: configKeys.all });
    },
  });
}
