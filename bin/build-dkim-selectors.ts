/**
 * The DKIM selectors the email check tries, for the knowledge base: ../shared/data/dkim-selectors.txt
 * (the short list of vavkamil/dkimsc4n, MIT) into lambdas/scanner/data/dkim-selectors.json with its
 * provenance inside. Called by `npm run build:vulndb`; runs alone too (`tsx bin/build-dkim-selectors.ts
 * [--source DIR] [--out DIR]`). The extended list (2,056 names, mostly generated dates) is left out:
 * a passive scan asks the domain's name servers a bounded number of questions, and the short list
 * holds the providers' defaults. The product reads only what this writes, never ../shared.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface StoredDkimSelectors {
  source: string;
  licence: string;
  sha256: string;
  selectors: string[];
}

/** A selector is one or more DNS labels (RFC 6376 §3.1). */
const SELECTOR = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function buildDkimSelectors(sourceDir: string, outDir: string): { selectors: number; bytes: number } {
  const text = readFileSync(join(sourceDir, 'dkim-selectors.txt'), 'utf8');
  const selectors = [...new Set(text.split(/\r?\n/).map((line) => line.trim().toLowerCase()).filter(Boolean))];
  const bad = selectors.filter((s) => !SELECTOR.test(s));
  if (bad.length > 0) throw new Error(`dkim-selectors.txt: not DNS labels: ${bad.join(', ')}`);
  const stored: StoredDkimSelectors = {
    source: 'vavkamil/dkimsc4n dkim.lst at commit 5e7abc9f872cfab3fa0eebe32660c14bd8345f57 (2021-04-27), via shared/data/dkim-selectors.txt',
    licence: 'MIT, Copyright (c) 2019 Kamil Vavra',
    sha256: createHash('sha256').update(text).digest('hex'),
    selectors,
  };
  const json = `${JSON.stringify(stored, null, 1)}\n`;
  writeFileSync(join(outDir, 'dkim-selectors.json'), json);
  return { selectors: selectors.length, bytes: Buffer.byteLength(json) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const result = buildDkimSelectors(resolve(option('--source') ?? '../shared/data'), resolve(option('--out') ?? 'lambdas/scanner/data'));
  console.log('dkim-selectors.json:', result);
}
