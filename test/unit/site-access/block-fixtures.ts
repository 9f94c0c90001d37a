/**
 * The captured responses of test/fixtures/blocks/ ({note, status, headers, body}), read as the
 * scanner's http client hands them to the detector: header names lower-case, every value a list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ObservedResponse } from '../../../lambdas/scanner/site-access/block.js';

export const BLOCK_FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/blocks/', import.meta.url));

export interface BlockFixture {
  name: string;
  note: string;
  status: number;
  /** As captured: one value or several (set-cookie). */
  headers: Record<string, string | string[]>;
  body: string;
}

export function blockFixtureNames(): string[] {
  return readdirSync(BLOCK_FIXTURES_DIR)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
}

export function blockFixture(name: string): BlockFixture {
  const raw = JSON.parse(readFileSync(join(BLOCK_FIXTURES_DIR, `${name}.json`), 'utf8')) as Omit<BlockFixture, 'name'>;
  return { name, ...raw };
}

/** The fixture as the detector reads it, as if fetched from `url`. */
export function observed(name: string, url = 'https://www.example.com/'): ObservedResponse {
  const fixture = blockFixture(name);
  const headers: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(fixture.headers)) headers[key.toLowerCase()] = Array.isArray(value) ? value : [value];
  return { url, status: fixture.status, headers, body: fixture.body };
}
