export function MarketplaceDialog() {
  return null;
}
