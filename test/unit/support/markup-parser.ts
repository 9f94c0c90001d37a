import { createRequire } from 'node:module';

/**
 * A real XML and HTML parser for unit tests (jsdom's DOMParser), typed by what the tests read: the
 * unit project's tsconfig has no DOM library and jsdom ships no types.
 */
export interface MarkupElement {
  readonly tagName: string;
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly textContent: string | null;
  readonly children: ArrayLike<MarkupElement>;
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): MarkupElement | null;
  querySelectorAll(selector: string): ArrayLike<MarkupElement>;
  getElementsByTagName(name: string): ArrayLike<MarkupElement>;
}

interface MarkupDocument {
  readonly documentElement: MarkupElement;
  getElementsByTagName(name: string): ArrayLike<MarkupElement>;
  querySelector(selector: string): MarkupElement | null;
}

interface JsdomModule {
  JSDOM: new (html?: string) => { window: { DOMParser: new () => { parseFromString(text: string, type: string): MarkupDocument } } };
}

const { JSDOM } = createRequire(import.meta.url)('jsdom') as JsdomModule;
const { DOMParser } = new JSDOM('').window;

/** Parses a standalone XML document; throws with the parser's message when it is not well-formed. */
export function parseXml(text: string, type = 'image/svg+xml'): MarkupElement {
  const document = new DOMParser().parseFromString(text, type);
  const error = document.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`Not well-formed XML: ${error.textContent ?? ''}`);
  return document.documentElement;
}

/** Parses an HTML snippet into a document body. */
export function parseHtml(html: string): MarkupElement {
  const document = new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html');
  return document.querySelector('body')!;
}

/** Every element under (and including) `root`, in document order. */
export function allElements(root: MarkupElement): MarkupElement[] {
  return [root, ...Array.from(root.children).flatMap(allElements)];
}
