import {
  EntityErrorSummaryPage,
  EntityImportPage,
  EntityKindFormPage,
  EntityOverviewPage,
  EntityRegistrationPage,
} from '../../../components/ui/entity-kit';
import type { ScreenProps } from '../../../lib/routes';
import { INFRASTRUCTURE_ENTITY_SECTION as SECTION } from '../infrastructure-entity-section';

/** The infrastructure entity screens: the entity kit's pages with this section's kinds and paths. */
export const InfrastructureEntityOverviewPage = (props: ScreenProps) => (
  <EntityOverviewPage section={SECTION} {...props} />
);
export const InfrastructureEntityRegistrationPage = (props: ScreenProps) => (
  <EntityRegistrationPage section={SECTION} {...props} />
);
export const InfrastructureEntityFormPage = (props: ScreenProps) => <EntityKindFormPage section={SECTION} {...props} />;
export const InfrastructureEntityErrorSummaryPage = (props: ScreenProps) => (
  <EntityErrorSummaryPage section={SECTION} {...props} />
);
export const InfrastructureImportPage = (props: ScreenProps) => <EntityImportPage section={SECTION} {...props} />;
