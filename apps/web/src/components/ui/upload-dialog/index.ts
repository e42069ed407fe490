export { UploadDialog, UploadPanel, UploadFailureList } from './upload-dialog';
export type { UploadDialogProps, UploadPanelProps, UploadFileResult } from './upload-dialog';
export {
  displayFileName,
  outcomeFromImportAnswer,
  outcomeFromTimeSeriesAnswer,
  uploadDialogColor,
  uploadPercent,
  type ImportAnswer,
  type SheetParseResult,
  type UploadDialogColor,
  type UploadFailure,
  type UploadFileStatus,
  type UploadFn,
  type UploadOutcome,
} from './upload-state';
export { ImportErrorScreen, ImportScreen, singleFailure, type ImportScreenProps } from './import-screen';
export { JobProgress, jobQuery, isJobFinal, JOB_POLL_MS } from './job-progress';
export {
  TimeSeriesUploadButton,
  TimeSeriesUploadDialog,
  createTimeSeriesUpload,
  fileExtension,
  timeSeriesCallFor,
  uploadFailureMessage,
  TIME_SERIES_EXTENSIONS,
  type TimeSeriesUploadButtonProps,
  type TimeSeriesUploadCall,
  type TimeSeriesUploadDialogProps,
  type XmlKind,
} from './timeseries-upload';
