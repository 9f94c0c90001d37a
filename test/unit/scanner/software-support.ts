import { readFileSync } from 'node:fs';
import type { ProbedResponse, SoftwareProbe } from '../../../lambdas/scanner/checks/software.check.js';

const fixtures = new URL('../../fixtures/software/', import.meta.url);

/** A fixture file's text (test/fixtures/software). */
export function fixtureText(name: string): string {
  return readFileSync(new URL(name, fixtures), 'utf8');
}

/** A captured response: `<name>.headers.json` and, when there is one, the body `<body>` (default `<name>.html`). */
export function capture(name: string, body: string | null = `${name}.html`): ProbedResponse {
  const head = JSON.parse(fixtureText(`${name}.headers.json`)) as { url: string; status: number; headers: Record<string, string[]> };
  return { ...head, body: body === null ? '' : fixtureText(body), redirects: [] };
}

/** A probe with nothing from other checks, for analysis tests. */
export function probeOf(parts: Partial<SoftwareProbe>): SoftwareProbe {
  return {
    page: null,
    errorPage: null,
    scripts: [],
    others: { http: { status: 'no result' }, ports: { status: 'no result' }, email: { status: 'no result' }, wordpress: { status: 'no result' } },
    ...parts,
  };
}
