/**
 * The HSTS preload list browsers ship (Chromium's force-https entries, in the knowledge base:
 * lambdas/scanner/data/hsts-preload.json, written by `npm run build:vulndb`; see HSTS-PROVENANCE.md),
 * and the lookup browsers and the MDN HTTP Observatory make: a host is preloaded when it is in the
 * list, or when a parent name is in it with include_subdomains.
 *
 * Stored form (bin/build-hsts-preload.ts writes it): each name with its labels reversed
 * ("www.example.com" → "com.example.www"), sorted by code unit, in blocks of BLOCK_SIZE names, one
 * string a block. In a block the names are separated by a space; a name without include_subdomains
 * starts with "!"; every name but a block's first then has one character of PREFIX_DIGITS giving how
 * many leading characters it shares with the name before it, followed by the rest. A lookup
 * binary-searches the blocks' first names and decodes one block.
 */

/** Names per block: a lookup decodes at most this many. */
export const BLOCK_SIZE = 64;
/** The shared-prefix lengths 0…61, one character each. */
export const PREFIX_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** hsts-preload.json as stored. */
export interface StoredPreloadList {
  format: 1;
  /** The date of Chromium's list. */
  listDate: string;
  chromiumJsonSha256: string;
  /** SHA-256 of the shared data file it was built from. */
  sourceSha256: string;
  count: number;
  blocks: readonly string[];
}

/** The list's entry that covers a host. */
export interface PreloadEntry {
  /** The entry's name: the host itself or a parent name. */
  name: string;
  /** Whether the entry covers every subdomain of its name too. */
  includeSubDomains: boolean;
}

/** Whether browsers force HTTPS for a host from the list alone: its covering entry, or null. */
export type PreloadLookup = (host: string) => PreloadEntry | null;

/** A lookup that finds nothing: for analyses run without the knowledge base (tests of other things). */
export const NOT_PRELOADED: PreloadLookup = () => null;

/** "www.example.com" → "com.example.www" (and back). */
export function reverseLabels(name: string): string {
  return name.split('.').reverse().join('.');
}

const EXCLAMATION = 0x21;

function prefixLength(code: number): number {
  // 0-9, A-Z, a-z → 0…61 (PREFIX_DIGITS).
  return code <= 0x39 ? code - 0x30 : code <= 0x5a ? code - 0x37 : code - 0x3d;
}

/** The include_subdomains flag stored for a reversed name, or undefined when the name is not in the block. */
function findInBlock(block: string, key: string): boolean | undefined {
  let previous = '';
  let start = 0;
  let first = true;
  while (start < block.length) {
    let end = block.indexOf(' ', start);
    if (end === -1) end = block.length;
    let at = start;
    const includeSubDomains = block.charCodeAt(at) !== EXCLAMATION;
    if (!includeSubDomains) at++;
    const name = first ? block.slice(at, end) : previous.slice(0, prefixLength(block.charCodeAt(at))) + block.slice(at + 1, end);
    if (name === key) return includeSubDomains;
    // Sorted: once past the key it is not here.
    if (name > key) return undefined;
    previous = name;
    first = false;
    start = end + 1;
  }
  return undefined;
}

/** The lookup over a stored list (pure; the list is read, never changed). */
export function preloadLookup(list: StoredPreloadList): PreloadLookup {
  const heads = list.blocks.map((block) => {
    const end = block.indexOf(' ');
    const head = end === -1 ? block : block.slice(0, end);
    return head.charCodeAt(0) === EXCLAMATION ? head.slice(1) : head;
  });
  const flag = (key: string): boolean | undefined => {
    // The last block whose first name is ≤ key.
    let low = 0;
    let high = heads.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (heads[middle]! <= key) {
        found = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found === -1 ? undefined : findInBlock(list.blocks[found]!, key);
  };
  return (host) => {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (!name) return null;
    const labels = name.split('.').reverse();
    // The host itself, then each parent name, which counts only with include_subdomains.
    for (let count = labels.length; count >= 1; count--) {
      const includeSubDomains = flag(labels.slice(0, count).join('.'));
      if (includeSubDomains === undefined) continue;
      if (count === labels.length || includeSubDomains) return { name: labels.slice(0, count).reverse().join('.'), includeSubDomains };
    }
    return null;
  };
}

let loaded: Promise<PreloadLookup> | undefined;

/**
 * The knowledge base's list, loaded on first use: the dynamic import makes it a chunk of its own
 * in the bundle, read only by a scan whose HTTP or TLS check needs it.
 */
export function loadHstsPreload(): Promise<PreloadLookup> {
  loaded ??= import('./data/hsts-preload.json', { with: { type: 'json' } }).then((module) => preloadLookup(module.default as StoredPreloadList));
  return loaded;
}
