import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { createApp } from '../../lib/app.js';
import { fromRoot } from '../../lib/paths.js';
import type { ProductStack } from '../../lib/product-stack.js';
import type { RouteDefinition } from '../../lambdas/routes.js';

/** The feature flags and settings `npx cdk synth` reads from cdk.json, so tests synth the same app. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(fromRoot('cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

const tempDirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
};

/** Removes the cloud assemblies and fake builds this process made (about 15 MB per synth). */
export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A throwaway frontend build, so the site's deployment path is tested without `npm run build`. */
export function fakeFrontendBuild(): string {
  const dir = tempDir('rampart-dist-');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(path.join(dir, 'crawler.html'), '<!doctype html><title>crawler</title>');
  writeFileSync(path.join(dir, 'assets', 'app-0123abcd.js'), 'console.log(1)');
  return dir;
}

export interface Synthesized {
  readonly app: App;
  readonly stack: ProductStack;
  readonly template: Template;
}

/**
 * The settings a deploy must give (lib/stack-config.ts), as test values: `mail.rampart-test.com` is
 * not a placeholder domain the stack refuses, and never deployed or sent from by the tests.
 */
export const TEST_DEPLOY_ENV = { MAIL_FROM: 'no-reply@mail.rampart-test.com', AWS_REGION: 'ap-southeast-2' } as const;

/**
 * Synthesizes the product stack as bin/app.ts does (real esbuild bundling, cdk.json's context),
 * with settings from `env` only (over TEST_DEPLOY_ENV), never from the developer's shell.
 */
export function synthProduct(
  options: { frontendDist?: string | null; env?: Record<string, string>; context?: Record<string, unknown>; routes?: readonly RouteDefinition[] } = {},
): Synthesized {
  const { app, stack } = createApp({
    nag: false,
    routes: options.routes,
    env: { ...TEST_DEPLOY_ENV, ...options.env },
    frontendDist: options.frontendDist ?? null,
    context: { ...cdkJsonContext(), ...options.context },
    outdir: tempDir('rampart-cdk-out-'),
  });
  return { app, stack, template: Template.fromStack(stack) };
}

/** cdk-nag AwsSolutions findings left after acknowledgements, one line each. */
export function nagFindings(app: App): string[] {
  const report = new AwsSolutionsChecks().validateScope(app);
  return report.violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.severity ?? 'finding'} ${v.ruleName} at ${r.constructPath ?? r.resourceLogicalId}: ${v.description}`),
  );
}
