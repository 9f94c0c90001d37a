/**
 * Just enough HTML reading for the Observatory tests that look into the page: the start tags with
 * their attributes (script for SRI, meta for CSP and Referrer-Policy given as http-equiv). It skips
 * comments and the raw text of script/style/textarea/title the way a browser's tokenizer does, so
 * markup written inside a script is not mistaken for a tag. Never throws on bad markup.
 */
import { HTML_TYPES, mediaType, type RetrievedResponse } from './retrieved.js';

export interface HtmlTag {
  /** Lower-case tag name. */
  name: string;
  /** Lower-case attribute names; the first of repeated attributes wins, entities decoded. */
  attributes: ReadonlyMap<string, string>;
}

const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'textarea', 'title']);
const SPACE = /[\t\n\f\r ]/;

/** Every start tag of the document, in order. */
export function startTags(html: string): HtmlTag[] {
  const tags: HtmlTag[] = [];
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open === -1) break;
    i = open + 1;
    if (html.startsWith('!--', i)) {
      const close = html.indexOf('-->', i + 3);
      i = close === -1 ? html.length : close + 3;
      continue;
    }
    const next = html[i] ?? '';
    if (next === '!' || next === '?' || next === '/') {
      const close = html.indexOf('>', i);
      i = close === -1 ? html.length : close + 1;
      continue;
    }
    if (!/[a-zA-Z]/.test(next)) continue;
    const tag = readTag(html, i);
    tags.push(tag.tag);
    i = tag.end;
    if (RAW_TEXT.has(tag.tag.name)) i = endOfRawText(html, i, tag.tag.name);
  }
  return tags;
}

function readTag(html: string, start: number): { tag: HtmlTag; end: number } {
  let i = start;
  while (i < html.length && !SPACE.test(html[i]!) && html[i] !== '/' && html[i] !== '>') i++;
  const name = html.slice(start, i).toLowerCase();
  const attributes = new Map<string, string>();
  for (;;) {
    while (i < html.length && (SPACE.test(html[i]!) || html[i] === '/')) i++;
    if (i >= html.length) return { tag: { name, attributes }, end: i };
    if (html[i] === '>') return { tag: { name, attributes }, end: i + 1 };
    const nameStart = i;
    i++; // an attribute name may start with "="
    while (i < html.length && !SPACE.test(html[i]!) && !'/>='.includes(html[i]!)) i++;
    const attribute = html.slice(nameStart, i).toLowerCase();
    let value = '';
    let j = i;
    while (j < html.length && SPACE.test(html[j]!)) j++;
    if (html[j] === '=') {
      j++;
      while (j < html.length && SPACE.test(html[j]!)) j++;
      const quote = html[j];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1);
        const end = close === -1 ? html.length : close;
        value = html.slice(j + 1, end);
        i = end + 1;
      } else {
        const valueStart = j;
        while (j < html.length && !SPACE.test(html[j]!) && html[j] !== '>') j++;
        value = html.slice(valueStart, j);
        i = j;
      }
    }
    if (!attributes.has(attribute)) attributes.set(attribute, decodeEntities(value));
  }
}

function endOfRawText(html: string, from: number, name: string): number {
  const pattern = new RegExp(`</${name}[\\t\\n\\f\\r />]`, 'ig');
  pattern.lastIndex = from;
  const match = pattern.exec(html);
  return match ? match.index : html.length;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED[body.toLowerCase()] ?? entity;
  });
}

/**
 * Headers a page gives itself in markup, as the Observatory reads them: every
 * `<meta http-equiv="content-security-policy" content>` and the last `<meta name="referrer" content>`.
 */
export function httpEquivHeaders(tags: readonly HtmlTag[]): { csp: string[]; referrer: string[] } {
  const csp: string[] = [];
  let referrer: string[] = [];
  for (const tag of tags) {
    if (tag.name !== 'meta') continue;
    const content = tag.attributes.get('content');
    if (content === undefined) continue;
    const equiv = tag.attributes.get('http-equiv');
    if (equiv !== undefined) {
      if (equiv.trim().toLowerCase() === 'content-security-policy') csp.push(content);
    } else if (tag.attributes.get('name')?.trim().toLowerCase() === 'referrer') {
      referrer = [content];
    }
  }
  return { csp, referrer };
}

/** The CSP and Referrer-Policy a page sets in its own markup (only HTML pages count). */
export function pageMeta(response: RetrievedResponse): { csp: string[]; referrer: string[] } {
  const type = mediaType(response.headers);
  if (!type || !HTML_TYPES.has(type) || !response.body) return { csp: [], referrer: [] };
  return httpEquivHeaders(startTags(response.body));
}
