import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';
import type { ProviderName } from '../../lambdas/composition/core.js';
import { providersOfFunction, providersOfRoute } from '../../lambdas/functions/api-function.js';
import { readsParameterSecrets } from '../../lambdas/functions/cold-start.js';
import { providersOfWorker } from '../../lambdas/functions/worker-function.js';
import { type ApiFunctionName, apiFunctions, routesOf, type WorkerFunctionName, workerFunctions } from '../../lambdas/routes.js';
import { fromRoot } from '../paths.js';

export type FunctionName = ApiFunctionName | WorkerFunctionName;

/** Where each provider lives (lambdas/composition/): what a function's entry may load. */
const PROVIDER_MODULES: Record<ProviderName, string> = {
  table: 'table.ts',
  scanQueue: 'scan-queue.ts',
  fanoutQueue: 'fanout-queue.ts',
  mailer: 'mailer.ts',
  sms: 'sms.ts',
  reports: 'reports.ts',
  userPool: 'user-pool.ts',
  payments: 'payments.ts',
  userTokens: 'user-tokens.ts',
  scanner: 'scanner.ts',
};

/**
 * esbuild settings for every function. ESM matches the repository ("type": "module", `.js` import
 * suffixes); the banner gives bundled CommonJS dependencies a `require` for Node built-ins. The AWS
 * SDK is bundled, not taken from the runtime, so the code runs with the SDK versions
 * package-lock.json pins and the tests used.
 */
export const bundleSettings = {
  target: 'node22',
  mainFields: ['module', 'main'],
  banner: "import { createRequire as __rampartCreateRequire } from 'node:module'; const require = __rampartCreateRequire(import.meta.url);",
} as const;

export interface FunctionBundle {
  /** The asset directory: the entry, the chunks it can reach, their source maps. */
  readonly dir: string;
  /** The Lambda handler setting (`{file}.handler`). */
  readonly handler: string;
  /** Minified JavaScript in the asset, bytes. */
  readonly bytes: number;
  /** What an import of the entry loads before any request: the entry and its static imports, bytes. */
  readonly coldBytes: number;
  /** The entry file's path. */
  readonly entry: string;
  /**
   * What a route's first request loads, bytes: the entry's static imports, the route's handler
   * module and the providers it uses, with everything they import (API functions only).
   */
  readonly routeBytes: Readonly<Record<string, number>>;
}

const module = (...segments: string[]) => JSON.stringify(fromRoot('lambdas', ...segments));

/** An API function's entry: its routes' handler modules and its providers, each behind a dynamic import. */
function apiEntrySource(fn: ApiFunctionName): string {
  const routeLoaders = routesOf(fn).map((route) => `    ${JSON.stringify(route.name)}: () => import(${module('api', `${route.name}.ts`)}),`);
  const providerLoaders = providersOfFunction(fn).map((name) => `    ${name}: () => import(${module('composition', PROVIDER_MODULES[name])}),`);
  return [
    `import { apiFunction } from ${module('functions', 'api-function.ts')};`,
    `export const handler = apiFunction(${JSON.stringify(fn)}, {`,
    '  routes: {',
    ...routeLoaders,
    '  },',
    '  providers: {',
    ...providerLoaders,
    '  },',
    ...(readsParameterSecrets(providersOfFunction(fn)) ? [`  parameterSecrets: () => import(${module('adapters', 'ssm-parameters.adapter.ts')}),`] : []),
    '});',
    '',
  ].join('\n');
}

/** A worker's entry: its `make` and the providers it uses, imported statically (it needs them all at once). */
function workerEntrySource(name: WorkerFunctionName): string {
  const providers = providersOfWorker(name);
  return [
    `import { workerFunction } from ${module('functions', 'worker-function.ts')};`,
    `import { make } from ${module('workers', `${name}.ts`)};`,
    ...providers.map((provider) => `import { provide as ${provider} } from ${module('composition', PROVIDER_MODULES[provider])};`),
    `export const handler = workerFunction(${JSON.stringify(name)}, make, { ${providers.join(', ')} }${
      readsParameterSecrets(providers) ? `, () => import(${module('adapters', 'ssm-parameters.adapter.ts')})` : ''
    });`,
    '',
  ].join('\n');
}

/** The entry sources of every function, generated from the manifest (lambdas/routes.ts). */
export function entrySources(): Record<FunctionName, string> {
  const api = Object.keys(apiFunctions).map((fn) => [fn, apiEntrySource(fn as ApiFunctionName)]);
  const workers = Object.keys(workerFunctions).map((name) => [name, workerEntrySource(name as WorkerFunctionName)]);
  return Object.fromEntries([...api, ...workers]) as Record<FunctionName, string>;
}

let built: ReadonlyMap<FunctionName, FunctionBundle> | undefined;

/**
 * Bundles every function in one esbuild run with code splitting, once per process: an API
 * function's entry loads a route's handler and providers on its first request, so a cold start
 * reads only the entry's own imports. Each function's asset directory then holds its entry and
 * just the chunks that entry can reach, so its bundle holds only the code its routes reach.
 */
export function functionBundles(): ReadonlyMap<FunctionName, FunctionBundle> {
  built ??= buildBundles();
  return built;
}

function buildBundles(): ReadonlyMap<FunctionName, FunctionBundle> {
  const root = mkdtempSync(path.join(tmpdir(), 'rampart-bundles-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  const entries = path.join(root, 'entries');
  const out = path.join(root, 'out');
  mkdirSync(entries);
  const entryPoints = Object.entries(entrySources()).map(([name, source]) => {
    const file = path.join(entries, `${name}.ts`);
    writeFileSync(file, source);
    return { in: file, out: name };
  });

  const options: BuildOptions = {
    entryPoints,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: bundleSettings.target,
    mainFields: [...bundleSettings.mainFields],
    banner: { js: bundleSettings.banner },
    outdir: out,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    metafile: true,
    absWorkingDir: fromRoot(),
    logLevel: 'warning',
  };
  const metafile = buildSync(options).metafile!;

  const outputs = new Map(Object.entries(metafile.outputs).map(([file, output]) => [path.resolve(fromRoot(), file), output]));
  const bundles = new Map<FunctionName, FunctionBundle>();
  for (const { out: name } of entryPoints) {
    const entry = path.join(out, `${name}.mjs`);
    const all = reachable(outputs, entry, ['import-statement', 'dynamic-import']);
    const cold = reachable(outputs, entry, ['import-statement']);
    const dir = path.join(root, 'assets', name);
    for (const file of all) {
      const target = path.join(dir, path.relative(out, file));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(file, target);
      if (existsSync(`${file}.map`)) copyFileSync(`${file}.map`, `${target}.map`);
    }
    const size = (files: Set<string>) => [...files].reduce((sum, file) => sum + statSync(file).size, 0);
    const routeBytes = name in apiFunctions ? routeLoads(outputs, cold, name as ApiFunctionName, size) : {};
    bundles.set(name as FunctionName, { dir, handler: `${name}.handler`, bytes: size(all), coldBytes: size(cold), entry: path.join(dir, `${name}.mjs`), routeBytes });
  }
  return bundles;
}

/** Each route's first load: the entry's static closure plus the chunks of its handler module and providers. */
function routeLoads(
  outputs: Map<string, Metafile['outputs'][string]>,
  cold: Set<string>,
  fn: ApiFunctionName,
  size: (files: Set<string>) => number,
): Record<string, number> {
  // A dynamically imported module is the entry point of its own chunk.
  const chunkOf = new Map([...outputs].filter(([, output]) => output.entryPoint).map(([file, output]) => [path.resolve(fromRoot(), output.entryPoint!), file]));
  const loads: Record<string, number> = {};
  for (const route of routesOf(fn)) {
    const modules = [fromRoot('lambdas', 'api', `${route.name}.ts`), ...providersOfRoute(route).map((p) => fromRoot('lambdas', 'composition', PROVIDER_MODULES[p]))];
    const files = new Set(cold);
    for (const module of modules) {
      const chunk = chunkOf.get(module);
      if (!chunk) throw new Error(`No chunk for ${module} in ${fn}`);
      for (const file of reachable(outputs, chunk, ['import-statement'])) files.add(file);
    }
    loads[route.name] = size(files);
  }
  return loads;
}

type ImportKind = Metafile['outputs'][string]['imports'][number]['kind'];

/** The output files an entry reaches through the given kinds of import (itself included). */
function reachable(outputs: Map<string, Metafile['outputs'][string]>, entry: string, kinds: ImportKind[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of outputs.get(file)?.imports ?? []) {
      if (!imported.external && kinds.includes(imported.kind)) visit(path.resolve(fromRoot(), imported.path));
    }
  };
  visit(entry);
  return seen;
}
