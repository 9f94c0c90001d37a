/**
 * JavaScript libraries and their versions from script URLs and script files, with retire.js's own
 * extractors (lambdas/scanner/data/js-libraries.json, written by `npm run build:vulndb`; see
 * JS-PROVENANCE.md), applied as retire.js applies them.
 */
import data from '../../data/js-libraries.json' with { type: 'json' };

/** Which retire.js extractor found the library: the file name, the whole URL, or the file's text. */
export type LibrarySource = 'script-filename' | 'script-uri' | 'script-content';

/** A library and its version, as one extractor read it. */
export interface LibraryMatch {
  /** Knowledge-base product id (`jquery`, `bootstrap`, `moment.js`). */
  product: string;
  name: string;
  version: string;
  source: LibrarySource;
  /** The text the pattern matched, cut to 100 characters (`/*! Bootstrap v3.3.7`). */
  matched: string;
}

interface StoredLibrary {
  product: string;
  name: string;
  filename?: string[];
  uri?: string[];
  filecontent?: string[];
  filecontentreplace?: { pattern: string; replacement: string }[];
}

interface CompiledLibrary {
  product: string;
  name: string;
  filename: RegExp[];
  uri: RegExp[];
  content: RegExp[];
  replace: { pattern: RegExp; replacement: string }[];
}

let compiled: CompiledLibrary[] | undefined;

/** Compiled on first use: 300-odd patterns a cold start does not need until a page is read. */
function libraries(): CompiledLibrary[] {
  compiled ??= (data as { libraries: StoredLibrary[] }).libraries.map((library) => ({
    product: library.product,
    name: library.name,
    filename: (library.filename ?? []).map((p) => new RegExp(p)),
    uri: (library.uri ?? []).map((p) => new RegExp(p)),
    content: (library.filecontent ?? []).map((p) => new RegExp(p)),
    replace: (library.filecontentreplace ?? []).map(({ pattern, replacement }) => ({ pattern: new RegExp(pattern), replacement })),
  }));
  return compiled;
}

/**
 * retire.js drops a trailing `.min`/`-min` the version pattern swallowed (`jquery-1.8.3.min.js`);
 * so do we, and the other build flavours too (`jquery-3.6.0.slim.min.js` is 3.6.0, not a "slim"
 * pre-release of it under SemVer); stray separators go too.
 */
function cleanVersion(raw: string): string | undefined {
  const version = raw.replace(/(?:[.-](?:min|slim|pack))+$/i, '').replace(/[._-]+$/, '');
  return /^\d+(?:\.\d+)*/.test(version) ? version : undefined;
}

/** Evidence text: one line, at most 100 characters. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

function unique(matches: LibraryMatch[]): LibraryMatch[] {
  const seen = new Map<string, LibraryMatch>();
  for (const match of matches) {
    const key = `${match.product}\u0000${match.version}`;
    if (!seen.has(key)) seen.set(key, match);
  }
  return [...seen.values()];
}

/** The file name of a URL: its last path segment, without query or fragment. */
export function fileNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    return url.split(/[?#]/)[0]!.split('/').pop() ?? '';
  }
}

/** Libraries whose version a script's URL gives away: file-name patterns on the file name, URI patterns on the whole URL. */
export function librariesInUrl(url: string): LibraryMatch[] {
  const fileName = fileNameOf(url);
  const found: LibraryMatch[] = [];
  for (const library of libraries()) {
    for (const [patterns, text, source] of [[library.filename, fileName, 'script-filename'], [library.uri, url, 'script-uri']] as const) {
      for (const pattern of patterns) {
        const match = pattern.exec(text);
        const version = match?.[1] ? cleanVersion(match[1]) : undefined;
        if (version) found.push({ product: library.product, name: library.name, version, source, matched: excerpt(match![0]) });
      }
    }
  }
  return unique(found);
}

/** Libraries whose version a script file's text names (its license header, a version constant). */
export function librariesInContent(text: string): LibraryMatch[] {
  const found: LibraryMatch[] = [];
  for (const library of libraries()) {
    for (const pattern of library.content) {
      const match = pattern.exec(text);
      const version = match?.[1] ? cleanVersion(match[1]) : undefined;
      if (version) found.push({ product: library.product, name: library.name, version, source: 'script-content', matched: excerpt(match![0]) });
    }
    for (const { pattern, replacement } of library.replace) {
      const match = pattern.exec(text);
      const version = match ? cleanVersion(match[0].replace(pattern, replacement)) : undefined;
      if (version) found.push({ product: library.product, name: library.name, version, source: 'script-content', matched: excerpt(match![0]) });
    }
  }
  return unique(found);
}

/**
 * File names that name a library without its version (`jquery.min.js`, `bootstrap.bundle.min.js`),
 * by knowledge-base product id. Written for Rampart: the names these libraries ship under.
 */
const NAMED_FILES: [RegExp, string][] = [
  [/^jquery(?:[.-](?:min|slim|pack))*\.js$/i, 'jquery'],
  [/^jquery-migrate(?:\.min)?\.js$/i, 'jquery-migrate'],
  [/^jquery-ui(?:\.custom)?(?:\.min)?\.js$/i, 'jquery-ui'],
  [/^jquery\.validate(?:\.min)?\.js$/i, 'jquery-validation'],
  [/^jquery\.dataTables(?:\.min)?\.js$/i, 'jquery.datatables'],
  [/^jquery\.prettyPhoto(?:\.min)?\.js$/i, 'jquery.prettyphoto'],
  [/^jquery\.mobile(?:\.min)?\.js$/i, 'jquery-mobile'],
  [/^bootstrap(?:\.bundle)?(?:\.min)?\.js$/i, 'bootstrap'],
  [/^bootstrap-select(?:\.min)?\.js$/i, 'bootstrap-select'],
  [/^angular(?:\.min)?\.js$/i, 'angularjs'],
  [/^lodash(?:\.core)?(?:\.min)?\.js$/i, 'lodash'],
  [/^underscore(?:-min|\.min)?\.js$/i, 'underscore.js'],
  [/^backbone(?:-min|\.min)?\.js$/i, 'backbone.js'],
  [/^moment(?:-with-locales)?(?:\.min)?\.js$/i, 'moment.js'],
  [/^handlebars(?:\.runtime)?(?:\.min)?\.js$/i, 'handlebars'],
  [/^mustache(?:\.min)?\.js$/i, 'mustache.js'],
  [/^knockout(?:-[\d.]+)?(?:\.min)?\.js$/i, 'knockout'],
  [/^(?:purify|dompurify)(?:\.min)?\.js$/i, 'dompurify'],
  [/^select2(?:\.full)?(?:\.min)?\.js$/i, 'select2'],
  [/^chart(?:\.umd)?(?:\.min)?\.js$/i, 'chart.js'],
  [/^swiper(?:-bundle)?(?:\.min)?\.js$/i, 'swiper'],
  [/^tinymce(?:\.min)?\.js$/i, 'tinymce'],
  [/^ckeditor\.js$/i, 'ckeditor'],
  [/^plupload(?:\.full)?(?:\.min)?\.js$/i, 'plupload'],
  [/^d3(?:\.min)?\.js$/i, 'd3'],
  [/^highcharts\.js$/i, 'highcharts'],
  [/^vue(?:\.global|\.runtime)?(?:\.prod|\.min)?\.js$/i, 'vue'],
  [/^react(?:\.production|\.development)?(?:\.min)?\.js$/i, 'react'],
  [/^react-dom(?:\.production|\.development)?(?:\.min)?\.js$/i, 'react-dom'],
];

/** The library a file name names without a version, by product id; undefined for any other name. */
export function libraryNamedBy(fileName: string): { product: string; name: string } | undefined {
  const product = NAMED_FILES.find(([pattern]) => pattern.test(fileName))?.[1];
  if (!product) return undefined;
  const library = libraries().find((l) => l.product === product);
  return library ? { product, name: library.name } : undefined;
}

/** The knowledge-base product ids the file-name table refers to (tests check each exists). */
export const NAMED_FILE_PRODUCTS: readonly string[] = NAMED_FILES.map(([, product]) => product);
