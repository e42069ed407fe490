/**
 * Every store that holds area-scoped state registers its reset here; an area switch calls
 * resetAllStores() (product.md §1: "all stores reset"). The query cache registers too.
 */
const resets = new Set<() => void>();

export function registerStoreReset(reset: () => void): () => void {
  resets.add(reset);
  return () => resets.delete(reset);
}

export function resetAllStores(): void {
  for (const reset of resets) reset();
}
