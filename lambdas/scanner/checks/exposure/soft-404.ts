/**
 * Soft 404s: many sites answer any unknown URL with 200 and their home page (or a "not found"
 * page sent as 200). Before any path is believed, the probe asks for a random path that cannot
 * exist; an answer that looks like that one (same status, similar length and words) is the
 * site's "anything" page, not the file the path names.
 */

/** A response as the soft-404 comparison reads it. */
export interface BaselineSample {
  path: string;
  status: number;
  body: string;
}

/** Word-set similarity (Jaccard) at or above which two pages are taken for the same page. */
export const SAME_PAGE_SIMILARITY = 0.9;

/** The body without the parts a not-found page varies on: the path asked for, numbers (times, ids, sizes), nonces. */
function normalize(body: string, path: string): string {
  let text = body;
  for (const variant of new Set([path, encodeURI(path), path.replace(/^\//, '')])) {
    if (variant.length > 1) text = text.split(variant).join(' ');
  }
  return text.replace(/[0-9a-f]{16,}/gi, ' ').replace(/\d+/g, ' ');
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? []);
}

/** Jaccard similarity of the two bodies' word sets, after removing the paths they were asked for. */
export function bodySimilarity(a: BaselineSample, b: BaselineSample): number {
  const left = words(normalize(a.body, a.path));
  const right = words(normalize(b.body, b.path));
  if (left.size === 0 && right.size === 0) return a.body.trim().length === 0 && b.body.trim().length === 0 ? 1 : 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared++;
  return shared / (left.size + right.size - shared);
}

/**
 * True when `candidate` is the same answer the site gave for a path that does not exist: same
 * status, length within 10% (or 64 bytes), and nearly the same words.
 */
export function matchesBaseline(candidate: BaselineSample, baseline: BaselineSample | null): boolean {
  if (!baseline || candidate.status !== baseline.status) return false;
  const a = candidate.body.length;
  const b = baseline.body.length;
  if (Math.abs(a - b) > Math.max(64, 0.1 * Math.max(a, b))) return false;
  return bodySimilarity(candidate, baseline) >= SAME_PAGE_SIMILARITY;
}
