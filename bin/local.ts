/**
 * `npm start`: the whole product on this machine, over in-process AWS emulators, no AWS account.
 * Environment: PORT (3000; 0 = any free port), HOST (127.0.0.1), DATA_DIR (.data), and every
 * configuration key in the README (SCAN_ALLOW_PRIVATE_TARGETS, SCAN_RESOLVERS, PRODUCT_NAME …).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalStack } from './local/stack.js';

const FRONTEND_INPUTS = ['frontend/src', 'frontend/public', 'frontend/index.html', 'frontend/vite.config.ts', 'lambdas/domain', 'lambdas/routes.ts'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds frontend/dist when it is missing or older than its sources. */
function ensureFrontendBuilt(): void {
  const built = newestMtime('frontend/dist/index.html');
  const sources = Math.max(...FRONTEND_INPUTS.map(newestMtime));
  if (built > 0 && built >= sources) return;
  console.log(built === 0 ? 'Building the site (frontend/dist is missing)…' : 'Rebuilding the site (sources changed)…');
  const result = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'frontend/vite.config.ts', '--logLevel', 'warn'], {
    stdio: 'inherit',
    // A caller's NODE_ENV (vitest sets "test") would give React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('The site build failed (see above).');
}

async function main() {
  // The SDK warns that releases after January 2027 need Node 22; the README says so once.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const started = performance.now();
  ensureFrontendBuilt();
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${process.env.PORT}"`);
  const stack = await startLocalStack({
    dataDir: process.env.DATA_DIR ?? '.data',
    port,
    host: process.env.HOST ?? '127.0.0.1',
    env: process.env,
  });
  const product = stack.config.PRODUCT_NAME;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${product} is ready at ${stack.url} (started in ${seconds} s)`);
  console.log(`  Mailbox (emails sent, SES local): ${stack.mailboxUrl}`);
  console.log(`  SMS outbox (local):               ${stack.outboxUrl}`);
  console.log(`  Data folder:                      ${process.env.DATA_DIR ?? '.data'}`);
  console.log(
    stack.config.SCAN_ALLOW_PRIVATE_TARGETS
      ? '  Private and loopback scan targets are ALLOWED (SCAN_ALLOW_PRIVATE_TARGETS=1).'
      : '  Private and loopback scan targets are refused; set SCAN_ALLOW_PRIVATE_TARGETS=1 to scan local servers.',
  );
  console.log('  Ctrl-C stops everything.');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping…`);
    stack.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
