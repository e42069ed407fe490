export { EntityOverviewPage } from './entity-overview-page';
export {
  EntityRegistrationPage,
  EntityKindFormPage,
  EntityForm,
  type EntityPageProps,
} from './entity-registration-page';
export { EntityErrorSummaryPage } from './entity-error-summary-page';
export { EntityImportPage } from './entity-import-page';
export { EntitySegmentsHistoryPage } from './entity-segments-history-page';
export { registrationPathOf, mayWrite, type EntitySection } from './section';
export {
  entityFormSchema,
  emptyFormValues,
  toSaveRecord,
  visibleFields,
  type EntityFormValues,
} from './entity-form-schema';
export { useEntityStatusSummaryStore } from './status-summary-store';
