import type { AreaKind, EntityFormKind, Role } from '@railwatt/contracts';

/**
 * One section that uses the entity kit (Infrastructure entities, Administration entities, export
 * limitations): its kinds and where its pages live. The feature route files build one and hand it to
 * the kit's pages, so the kit knows no section by name.
 */
export interface EntitySection {
  /** Names the section (test ids, logs). */
  id: string;
  kinds: readonly EntityFormKind[];
  /** Absolute paths of the section's pages. */
  paths: {
    overview: string;
    /** The registration page; a section with several kinds has one child form per kind below it. */
    registration: string;
    errorSummary: string;
    segmentsHistory: string;
    /** Absent: the section has no import page. */
    import?: string;
  };
  /**
   * Who may register, edit, import and change status (courtesy; the server decides per kind): the
   * roles, replaced per area kind by `areaRoles` (Administration in the exchange area).
   */
  write: { roles: readonly Role[]; areaRoles?: Partial<Record<AreaKind, readonly Role[]>> };
}

/** The path of a kind's registration form (its child route when the section has several kinds). */
export const registrationPathOf = (section: EntitySection, kind: EntityFormKind): string =>
  section.kinds.length > 1 ? `${section.paths.registration}/${kind}` : section.paths.registration;

export function mayWrite(section: EntitySection, roles: readonly Role[], area: AreaKind | null): boolean {
  const writers = (area ? section.write.areaRoles?.[area] : undefined) ?? section.write.roles;
  return roles.some((r) => writers.includes(r));
}
