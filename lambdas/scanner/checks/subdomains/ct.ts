/**
 * Certificate transparency: every publicly trusted certificate is logged, so the names in the
 * logs are names the domain has used. Reads a crt.sh-compatible JSON answer.
 */

/** The crt.sh query for every name under `domain` (`%` is crt.sh's wildcard). */
export function ctQueryUrl(base: string, domain: string): string {
  return `${base}?q=%25.${encodeURIComponent(domain)}&output=json`;
}

/**
 * The distinct names under `domain` in a crt.sh JSON answer (`name_value` holds one name per
 * line; `*.` wildcards are reduced to their base). Undefined when the body is not such an answer.
 */
export function parseCtNames(body: string, domain: string): string[] | undefined {
  let entries: unknown;
  try {
    entries = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!Array.isArray(entries)) return undefined;
  const suffix = `.${domain.toLowerCase()}`;
  const names = new Set<string>();
  for (const entry of entries) {
    const values = [(entry as { name_value?: unknown }).name_value, (entry as { common_name?: unknown }).common_name];
    for (const value of values) {
      if (typeof value !== 'string') continue;
      for (const line of value.split(/\s+/)) {
        const name = line.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
        if (name.endsWith(suffix) && /^[a-z0-9._-]+$/.test(name)) names.add(name);
      }
    }
  }
  return [...names].sort();
}
