export { UploadDialog, UploadPanel, UploadFailureList } from './upload-dialog';
export type { UploadDialogProps, UploadPanelProps, UploadResult } from './upload-dialog';
export {
  displayFileName,
  outcomeFromImportAnswer,
  uploadDialogColor,
  type ImportAnswer,
  type SheetParseResult,
  type UploadDialogColor,
  type UploadFailure,
  type UploadFileStatus,
  type UploadFn,
  type UploadOutcome,
} from './upload-state';
