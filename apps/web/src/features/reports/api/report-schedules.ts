import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { reportScheduleCalls, type ReportName, type ReportScheduleBodyInput } from '@railwatt/contracts';
import { api } from '../../../lib/api';

/**
 * The report schedule calls (contracts calls/report-schedules.ts, issue 20 item 4): a report's
 * schedules, saving one (with-credentials when a password was typed) and deleting one.
 */
export const reportScheduleKeys = {
  all: ['report-schedules'] as const,
  list: (report: ReportName) => [...reportScheduleKeys.all, report] as const,
};

/** GET /processing/scheduledreports?reportName=<report>. */
export const reportSchedulesQuery = (report: ReportName) =>
  queryOptions({
    queryKey: reportScheduleKeys.list(report),
    queryFn: ({ signal }) => api.call(reportScheduleCalls.list, { query: { reportName: report }, signal }),
  });

/** POST /processing/scheduledreports, or .../with-credentials when the destination carries a password. */
export function useSaveReportSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReportScheduleBodyInput) =>
      api.call(
        'password' in body.destination && body.destination.password
          ? reportScheduleCalls.saveWithCredentials
          : reportScheduleCalls.save,
        { body },
      ),
    onSuccess: (saved) => client.invalidateQueries({ queryKey: reportScheduleKeys.list(saved.reportName) }),
  });
}

/** DELETE /processing/scheduledreports/{id}. */
export function useDeleteReportSchedule(report: ReportName) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(reportScheduleCalls.remove, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: reportScheduleKeys.list(report) }),
  });
}
