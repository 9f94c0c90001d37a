import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiFunctions, routes } from '../../lambdas/routes.js';

/** docs/api.md is the API's overview (DESIGN "docs/"): every route of the manifest has its row, in its function's group. */
const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** The table rows of each `(function \`name\`)` section: "METHOD path" → the function whose section lists it. */
function documentedRoutes(): Map<string, string> {
  const rows = new Map<string, string>();
  let fn = '';
  for (const line of doc.split('\n')) {
    const heading = /^## .*\(function `([\w-]+)`\)/.exec(line);
    if (heading) fn = heading[1]!;
    else if (line.startsWith('## ')) fn = '';
    const row = /^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/.exec(line);
    if (row && fn) rows.set(`${row[1]} ${row[2]}`, fn);
  }
  return rows;
}

describe('docs/api.md', () => {
  it("lists every route of the manifest in its function's section", () => {
    // Prepare
    const documented = documentedRoutes();

    // Assess
    expect(Object.fromEntries(routes.map((route) => [`${route.method} ${route.path}`, documented.get(`${route.method} ${route.path}`)]))).toEqual(
      Object.fromEntries(routes.map((route) => [`${route.method} ${route.path}`, route.fn])),
    );
    expect(new Set(documented.values())).toEqual(new Set(Object.keys(apiFunctions)));
  });

  it('points to the OpenAPI document the api-v1 function serves', () => {
    const openapi = routes.find((route) => route.name === 'get-openapi-document')!;
    expect(doc).toContain(`GET ${openapi.path}`);
    expect(openapi.fn).toBe('api-v1');
  });
});
