/**
 * placeholderData that keeps the previous data while loading (spec §4) only within one
 * collection: every collection query key here is [kind, workingKey, collectionName, ...], and a
 * different collection starts from nothing (reset to idle), never from another's figures.
 */
export function keepPreviousWithinCollection<T>(collectionName: string | null) {
  return (previousData: T | undefined, previousQuery: { queryKey: readonly unknown[] } | undefined): T | undefined =>
    previousQuery && previousQuery.queryKey[2] === collectionName ? previousData : undefined;
}
