/** Placeholder until this screen's issue lands: the shell with an empty main area. */
export function UsageScreen() {
  return null;
}
