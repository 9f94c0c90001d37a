/**
 * The product's name as a slug (lower case, runs of anything but a–z and 0–9 → '-', no '-' at
 * either end): the verification file's name, the demo account's address, user agents.
 */
export function productSlug(productName: string): string {
  return productName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
