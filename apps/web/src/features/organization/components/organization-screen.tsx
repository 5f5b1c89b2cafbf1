export function OrganizationScreen() {
  return null;
}
