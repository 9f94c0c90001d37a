/**
 * End-of-life dates per release cycle (endoflife.date), in the knowledge base as
 * lambdas/scanner/data/eol.json (written by `npm run build:vulndb`, see EOL-PROVENANCE.md). Small
 * (about 30 kB): imported statically, the software check reads it on every scan.
 *
 * Stored form (bin/build-eol.ts writes it): per product its display name and its cycles as in the
 * source, newest first, each `[cycle, releaseDate, eol, latest, lts, label?]`: `eol` is the end of
 * security support, a date, `true` (ended, no date given) or `false` (no end announced); `lts` is 1 for
 * a long-term-support line; `label` is endoflife.date's name where the cycle id is not a version
 * (Windows Server `2012-r2` → "Windows Server 2012 R2").
 */
import data from '../data/eol.json' with { type: 'json' };
import { compareParsed, parseVersion } from './version.js';

/** One release cycle as stored. */
export type StoredCycle = [cycle: string, releaseDate: string, eol: string | boolean, latest: string | null, lts: 0 | 1, label?: string];

/** eol.json as stored. */
export interface StoredEndOfLife {
  format: 1;
  /** The date of the endoflife.date data. */
  dataDate: string;
  /** SHA-256 over the shared files it was built from (sorted by name, each name and content). */
  sourceSha256: string;
  products: Record<string, { title: string; cycles: StoredCycle[] }>;
}

/** A product's release cycle (branch) and its support. */
export interface ReleaseCycle {
  product: string;
  /** The product's display name ("PHP", "Microsoft Windows Server"). */
  title: string;
  cycle: string;
  /** "PHP 7.4", "Windows Server 2012 R2": the cycle as people name it. */
  name: string;
  releaseDate: string;
  /** End of security support: a date, `true` (ended, undated), `false` (no end announced). */
  eol: string | boolean;
  latest: string | null;
  lts: boolean;
}

const stored = data as unknown as StoredEndOfLife;
if (stored.format !== 1) throw new Error(`eol.json format ${String(stored.format)} is not supported; rebuild with npm run build:vulndb`);

/** The date the end-of-life data was read. */
export const EOL_DATA_DATE = stored.dataDate;

function toCycle(product: string, title: string, [cycle, releaseDate, eol, latest, lts, label]: StoredCycle): ReleaseCycle {
  return { product, title, cycle, name: label ?? `${title} ${cycle}`, releaseDate, eol, latest, lts: lts === 1 };
}

/** Every cycle of a product, newest first as endoflife.date lists them; [] for a product it does not cover. */
export function releaseCycles(product: string): ReleaseCycle[] {
  const entry = Object.hasOwn(stored.products, product) ? stored.products[product] : undefined;
  return entry ? entry.cycles.map((cycle) => toCycle(product, entry.title, cycle)) : [];
}

/** The products with release cycles (endoflife.date ids as the shared files name them: php, apache-http-server, windows-server …). */
export function eolProducts(): string[] {
  return Object.keys(stored.products);
}

/**
 * The cycle a version belongs to: the longest cycle id that the version starts with at a dot
 * (8.2.4 → "8.2", 1.26.3 → "1.26", 3.3.7 → "3", 22.04 → "22.04"); for Exchange, whose cycles are years,
 * by build number: the cycle with the lowest `latest` build at or above the version among those of
 * its major.minor (15.2.1544.36 → 2019; 15.2.2562.x → the Subscription Edition).
 */
export function cycleOf(product: string, version: string): ReleaseCycle | undefined {
  const cycles = releaseCycles(product);
  if (product === 'exchange') return exchangeCycle(cycles, version);
  const text = version.trim().toLowerCase();
  let best: ReleaseCycle | undefined;
  for (const cycle of cycles) {
    const id = cycle.cycle.toLowerCase();
    if ((text === id || text.startsWith(`${id}.`)) && (!best || id.length > best.cycle.length)) best = cycle;
  }
  return best;
}

function exchangeCycle(cycles: readonly ReleaseCycle[], version: string): ReleaseCycle | undefined {
  const parsed = parseVersion(version);
  if (!parsed || parsed.release.length < 3) return undefined;
  const family = (text: string | null) => text?.split('.').slice(0, 2).join('.');
  const line = parsed.release.slice(0, 2).join('.');
  const candidates = cycles
    .filter((cycle) => cycle.latest && family(cycle.latest) === line)
    .map((cycle) => ({ cycle, latest: parseVersion(cycle.latest!)! }))
    .sort((a, b) => compareParsed(a.latest, b.latest));
  return (candidates.find((candidate) => compareParsed(parsed, candidate.latest) <= 0) ?? candidates.at(-1))?.cycle;
}

/** Whether a cycle is out of security support on `date` (YYYY-MM-DD): `eol` true, or a date on or before it. */
export function hasEnded(cycle: Pick<ReleaseCycle, 'eol'>, date: string): boolean {
  return cycle.eol === true || (typeof cycle.eol === 'string' && cycle.eol <= date);
}

/** Cycle order: by version where both ids are versions, else by release date. */
function older(a: ReleaseCycle, b: ReleaseCycle): number {
  const [x, y] = [parseVersion(a.cycle), parseVersion(b.cycle)];
  if (x && y && x.rest === '' && y.rest === '') return compareParsed(x, y);
  return a.releaseDate < b.releaseDate ? -1 : a.releaseDate > b.releaseDate ? 1 : 0;
}

/**
 * What to upgrade to from `from` on `date`: the next supported cycle above it (the smallest step),
 * and the newest supported one (LTS first where the product has LTS lines). Both undefined when no
 * cycle is supported.
 */
export function upgradeTargets(from: ReleaseCycle, date: string): { next?: ReleaseCycle; newest?: ReleaseCycle } {
  const supported = releaseCycles(from.product)
    .filter((cycle) => !hasEnded(cycle, date) && cycle.releaseDate <= date && older(cycle, from) > 0)
    // Windows Server's semi-annual channel and similar short lines are not where a server goes.
    .filter((cycle) => !/-(sac|ac)$/.test(cycle.cycle))
    .sort(older);
  if (supported.length === 0) return {};
  const hasLts = supported.some((cycle) => cycle.lts);
  const pool = hasLts ? supported.filter((cycle) => cycle.lts) : supported;
  return { next: pool[0], newest: pool.at(-1) };
}
