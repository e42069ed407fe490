import {
  EntityErrorSummaryPage,
  EntityImportPage,
  EntityKindFormPage,
  EntityOverviewPage,
  EntityRegistrationPage,
  EntitySegmentsHistoryPage,
} from '../../../components/ui/entity-kit';
import type { ScreenProps } from '../../../lib/routes';
import { ADMINISTRATION_ENTITY_SECTION as SECTION, EXPORT_LIMITATION_SECTION } from '../administration-entity-sections';

/** The administration entity screens: the entity kit's pages with this section's kinds and paths. */
export const AdministrationEntitiesOverviewPage = (props: ScreenProps) => (
  <EntityOverviewPage section={SECTION} {...props} />
);
export const AdministrationEntitiesRegistrationPage = (props: ScreenProps) => (
  <EntityRegistrationPage section={SECTION} {...props} />
);
export const AdministrationEntityFormPage = (props: ScreenProps) => <EntityKindFormPage section={SECTION} {...props} />;
export const AdministrationEntitiesErrorSummaryPage = (props: ScreenProps) => (
  <EntityErrorSummaryPage section={SECTION} {...props} />
);
export const AdministrationImportPage = (props: ScreenProps) => <EntityImportPage section={SECTION} {...props} />;
export const AdministrationSegmentsHistoryPage = (props: ScreenProps) => (
  <EntitySegmentsHistoryPage section={SECTION} {...props} />
);
export const ExportLimitationOverviewPage = (props: ScreenProps) => (
  <EntityOverviewPage section={EXPORT_LIMITATION_SECTION} {...props} />
);
export const ExportLimitationRegistrationPage = (props: ScreenProps) => (
  <EntityRegistrationPage section={EXPORT_LIMITATION_SECTION} {...props} />
);
