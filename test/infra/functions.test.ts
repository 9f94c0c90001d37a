import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFunctionName, apiFunctions, type RouteDefinition, routes } from '../../lambdas/routes.js';
import { type FunctionName, functionBundles } from '../../lib/constructs/bundles.js';
import { removeTempDirs, synthProduct, type Synthesized } from './synth.js';

/**
 * The stack's figures (issue 17): CloudFormation resources, what a route costs, the time to
 * synthesize, the bundles' sizes and the cold import of the largest. Printed for the closing note
 * and the README; the targets a synth can be held to are asserted, with room for growth.
 */
// CloudFormation's own limit is 500. 300 since issue 30 item 7: each API function's alias, version and
// CodeDeploy deployment group (3 per function, lib/api/releases.ts) took the stack past 250.
const RESOURCE_LIMIT = 300;
const RESOURCES_PER_ROUTE = 2;
const HEALTH_LOAD_LIMIT = 200 * 1024;
const COLD_IMPORT_RUNS = 5;

let synthesized: Synthesized;
let synthMs: number;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const resourceCount = (s: Synthesized) => Object.keys(s.template.toJSON().Resources as object).length;

beforeAll(() => {
  // The first synth of this process: one esbuild run for every function, then the stack.
  const started = performance.now();
  synthesized = synthProduct();
  synthMs = performance.now() - started;
});

afterAll(removeTempDirs);

describe('figures', () => {
  it(`keeps the stack under ${RESOURCE_LIMIT} resources, a route costing at most ${RESOURCES_PER_ROUTE}`, () => {
    // Prepare: the same stack with one route fewer (each function still serves at least one).
    const dropped = (routes as readonly RouteDefinition[]).find((route) => route.name === 'get-platform-stats')!;
    const fewer = synthProduct({ routes: (routes as readonly RouteDefinition[]).filter((route) => route !== dropped) });

    // Act
    const total = resourceCount(synthesized);
    const perRoute = total - resourceCount(fewer);

    // Assess
    console.log(`figures: ${total} CloudFormation resources for ${routes.length} routes; a route adds ${perRoute}; synth ${(synthMs / 1000).toFixed(1)} s`);
    expect(total).toBeLessThanOrEqual(RESOURCE_LIMIT);
    expect(perRoute).toBeGreaterThanOrEqual(1);
    expect(perRoute).toBeLessThanOrEqual(RESOURCES_PER_ROUTE);
  });

  it('bundles each function with only its own code, and prints the sizes', () => {
    const bundles = functionBundles();
    for (const [name, bundle] of bundles) {
      const routesLoaded = Object.entries(bundle.routeBytes).sort((a, b) => b[1] - a[1]);
      const heaviest = routesLoaded[0] ? `; heaviest first request ${routesLoaded[0][0]} ${kib(routesLoaded[0][1])}` : '';
      console.log(`figures: ${name.padEnd(20)} bundle ${kib(bundle.bytes).padStart(9)}, entry and its static imports ${kib(bundle.coldBytes).padStart(9)}${heaviest}`);
    }
    // health loads the entry and its own module only: no adapter, no AWS SDK.
    const health = bundles.get('public-api')!.routeBytes.health!;
    console.log(`figures: GET /api/health loads ${kib(health)}`);
    expect(health).toBeLessThanOrEqual(HEALTH_LOAD_LIMIT);
    // A function that uses neither the mailer nor the pool carries neither SDK client.
    const badge = bundles.get('badge')!;
    expect(badge.bytes).toBeLessThan(Math.min(...[...bundles.values()].filter((b) => b !== badge).map((b) => b.bytes)));
  });

  it('prints the cold import of each API function, median of fresh processes', () => {
    const bundles = functionBundles();
    const medians = new Map<FunctionName, number>();
    for (const name of Object.keys(apiFunctions) as ApiFunctionName[]) {
      const runs = Array.from({ length: COLD_IMPORT_RUNS }, () =>
        Number(
          execFileSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(bundles.get(name)!.entry)}); console.log(performance.now() - t);`], {
            encoding: 'utf8',
          }).trim(),
        ),
      ).sort((a, b) => a - b);
      medians.set(name, runs[Math.floor(runs.length / 2)]!);
    }
    console.log(`figures: cold import (median of ${COLD_IMPORT_RUNS}): ${[...medians].map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`).join(', ')}`);
    for (const [name, ms] of medians) expect(ms, name).toBeGreaterThan(0);
  });
});
