/**
 * The product's name as a slug (lower case, runs of anything but a–z and 0–9 → '-', no '-' at
 * either end): the verification file's name, the demo account's address, user agents.
 */
export function productSlug(productName: string): string {
  return productName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/**
 * DECISIONS "Scanner identity": the user agent every request of the scanner carries,
 * `{PRODUCT_NAME}Scanner/1.0 (+{SITE_URL}/scanner)`, so a site owner who finds it in their logs can
 * look up who it is and how to opt out. A product token may not hold spaces or separators (RFC 9110
 * §10.1.5), so the name keeps only its letters, digits and `!#$%&'*+-.^_`|~` ("Bastion Security" → BastionSecurityScanner).
 */
export function scannerUserAgent(productName: string, siteUrl: string): string {
  const token = productName.replace(/[^A-Za-z0-9!#$%&'*+.^_`|~-]/g, '') || 'Site';
  return `${token}Scanner/1.0 (+${scannerPageUrl(siteUrl)})`;
}

/** The public page that says what the scanner does, where it scans from and how to opt out. */
export function scannerPageUrl(siteUrl: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/scanner`;
}
