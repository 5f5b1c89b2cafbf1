export function ApiKeysScreen() {
  return null;
}
