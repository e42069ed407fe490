export { UploadDialog, UploadPanel, UploadFailureList } from './upload-dialog';
export type { UploadDialogProps, UploadPanelProps, UploadFileResult } from './upload-dialog';
export {
  displayFileName,
  outcomeFromImportAnswer,
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
