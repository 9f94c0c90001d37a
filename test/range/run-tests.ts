/**
 * `npm run test:range [-- vitest args]`: vitest with the range config, run under the range-only
 * resolver (isolation.ts), so no test (nor the scanner under test) can query the system resolver.
 * Without root it runs vitest directly, whose global setup then says why the range cannot start.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolated, removeRangeResolvConf } from './isolation.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const vitestArgs = [vitest, 'run', '--config', path.join('test', 'range', 'vitest.range.config.mts'), ...process.argv.slice(2)];

const { command, args } = process.getuid?.() === 0 ? await isolated(process.execPath, vitestArgs) : { command: process.execPath, args: vitestArgs };
const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  void removeRangeResolvConf().finally(() => process.exit(code ?? (signal ? 1 : 0)));
});
