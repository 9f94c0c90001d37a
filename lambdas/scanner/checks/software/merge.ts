/**
 * Many sightings, one technology per product and version: the same Apache 2.4.71 in the Server
 * header, the error page and the port scan's banner is one entry listing the three places.
 */
import { distributionPatchLevel, parseVersion } from '../../vulndb/index.js';
import { compareParsed } from '../../vulndb/version.js';
import { nameKey } from './names.js';
import type { Confidence, Sighting, Technology } from './types.js';

/** Evidence lines kept per technology; the rest are counted. */
export const MAX_EVIDENCE = 10;

const RANK: Record<Confidence, number> = { high: 3, medium: 2, low: 1 };

/** Compares confidences: positive when `a` is the stronger. */
export function compareConfidence(a: Confidence, b: Confidence): number {
  return RANK[a] - RANK[b];
}

const productKey = (sighting: Pick<Sighting, 'product' | 'name'>) => sighting.product ?? `name:${nameKey(sighting.name)}`;

interface Draft {
  technology: Omit<Technology, 'evidence' | 'seenIn'>;
  evidence: string[];
  seenIn: string[];
}

function addPlace(draft: Draft, sighting: Sighting) {
  const line = `${sighting.where}: ${sighting.value}`;
  if (!draft.evidence.includes(line)) draft.evidence.push(line);
  if (!draft.seenIn.includes(sighting.where)) draft.seenIn.push(sighting.where);
}

function capped(lines: string[]): string[] {
  return lines.length > MAX_EVIDENCE ? [...lines.slice(0, MAX_EVIDENCE), `… and ${lines.length - MAX_EVIDENCE} more`] : lines;
}

/**
 * Merges sightings into technologies: one per product and version, the strongest reading's
 * confidence and source, every place as evidence. A reading without a version (a PHPSESSID cookie)
 * joins every versioned entry of its product, and stands alone only when no version was seen.
 * The backport hint is the first that names a distribution (else the first given).
 * Sorted by name, then version.
 */
export function mergeSightings(sightings: readonly Sighting[]): Technology[] {
  const drafts = new Map<string, Draft>();
  const versionless = new Map<string, Sighting[]>();
  for (const sighting of sightings) {
    if (!sighting.version) {
      const key = productKey(sighting);
      versionless.set(key, [...(versionless.get(key) ?? []), sighting]);
      continue;
    }
    const key = `${productKey(sighting)}\u0000${sighting.version.toLowerCase()}`;
    let draft = drafts.get(key);
    if (!draft) {
      const { where: _where, value: _value, backportHint: _hint, ...rest } = sighting;
      draft = { technology: { ...rest }, evidence: [], seenIn: [] };
      drafts.set(key, draft);
    } else if (compareConfidence(sighting.confidence, draft.technology.confidence) > 0) {
      draft.technology.confidence = sighting.confidence;
      draft.technology.source = sighting.source;
    }
    const hint = sighting.backportHint;
    if (hint && (!draft.technology.backportHint || (!distributionPatchLevel(draft.technology.backportHint) && distributionPatchLevel(hint)))) {
      draft.technology.backportHint = hint;
    }
    addPlace(draft, sighting);
  }

  const versioned = new Map<string, Draft[]>();
  for (const [key, draft] of drafts) {
    const product = key.split('\u0000')[0]!;
    versioned.set(product, [...(versioned.get(product) ?? []), draft]);
  }
  const all = [...drafts.values()];
  for (const [product, readings] of versionless) {
    const targets = versioned.get(product);
    if (targets) {
      for (const target of targets) for (const reading of readings) addPlace(target, reading);
      continue;
    }
    const [first, ...others] = [...readings].sort((a, b) => compareConfidence(b.confidence, a.confidence));
    const { where: _where, value: _value, backportHint: _hint, ...rest } = first!;
    const draft: Draft = { technology: { ...rest }, evidence: [], seenIn: [] };
    for (const reading of [first!, ...others]) addPlace(draft, reading);
    all.push(draft);
  }

  return all
    .map(({ technology, evidence, seenIn }): Technology => {
      const distribution = technology.backportHint ? distributionPatchLevel(technology.backportHint) : undefined;
      return { ...technology, evidence: capped(evidence), seenIn, ...(distribution ? { distribution } : {}) };
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || byVersion(a.version, b.version));
}

/** Version order where both parse (a version a page made up may not), else text order; no version first. */
function byVersion(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return a === undefined ? -1 : 1;
  const [x, y] = [parseVersion(a), parseVersion(b)];
  if (x && y) return compareParsed(x, y) || (a < b ? -1 : 1);
  return a < b ? -1 : 1;
}
