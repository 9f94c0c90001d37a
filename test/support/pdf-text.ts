import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

/** Windows-1252 bytes 0x80–0x9F that differ from Latin-1 (the standard fonts' WinAnsi encoding). */
const CP1252: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š', 0x8b: '‹', 0x8c: 'Œ', 0x8e: 'Ž',
  0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—', 0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›', 0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};

const decodeWinAnsi = (bytes: Buffer) => [...bytes].map((b) => CP1252[b] ?? String.fromCharCode(b)).join('');

/**
 * Reads a PDF back for assertions: the page count from a real parser (pdf-lib) and the text of
 * every `Tj` operator, in drawing order, from the (Flate-compressed) content streams.
 */
export async function readPdf(bytes: Uint8Array): Promise<{ pages: number; lines: string[]; text: string }> {
  const pages = (await PDFDocument.load(bytes)).getPageCount();
  const raw = Buffer.from(bytes);
  const lines: string[] = [];
  const streamPattern = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = streamPattern.exec(raw.toString('latin1'))) !== null) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start, 'latin1');
    if (end < 0) break;
    let content: string;
    try {
      content = inflateSync(raw.subarray(start, end)).toString('latin1');
    } catch {
      content = raw.subarray(start, end).toString('latin1');
    }
    for (const op of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) lines.push(decodeWinAnsi(Buffer.from(op[1]!, 'hex')));
    streamPattern.lastIndex = end + 'endstream'.length;
  }
  return { pages, lines, text: lines.join('\n') };
}
