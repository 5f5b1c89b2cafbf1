export function InviteDialog() {
  return null;
}
