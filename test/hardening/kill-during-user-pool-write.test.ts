import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writesAtomically } from '../../bin/local/atomic-file-engine.js';
import { startCognito } from '../../bin/local/emulators.js';

/**
 * Issue 11 "Faults": cognito-local's user pool is one JSON file that StormDB rewrote in place; a kill
 * during the rewrite left it empty (an empty pool: every account gone) or cut short (start-up fails).
 * `npm start` now writes it through a temporary file and a rename (bin/local/atomic-file-engine.ts).
 * A child process rewrites a 4 MB pool nonstop and is killed with SIGKILL at a random moment, again and
 * again; after every kill the file must still parse as a whole pool. The in-place engine is run the
 * same way to show the kill does land mid-write.
 */
const KILLS = 12;
const CONTROL_KILLS = 60;
const FIXTURE = join(import.meta.dirname, 'fixtures', 'rewrite-user-pool.ts');
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-pool-kill-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts the writer, waits for its first version, lets it rewrite for a random while, kills it; the file's state. */
async function killMidRewrite(file: string, mode: 'atomic' | 'in-place', delayMs: number): Promise<'whole' | 'broken'> {
  // Each round starts afresh (StormDB will not start on a broken file, which is the point).
  await rm(file, { force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, file, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
  });
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  try {
    const pool = JSON.parse(await readFile(file, 'utf8')) as { version?: number; Users?: unknown[] };
    return typeof pool.version === 'number' && pool.Users?.length === 20_000 ? 'whole' : 'broken';
  } catch {
    return 'broken';
  }
}

describe('npm start killed while the user pool is written', () => {
  it(`keeps the pool file whole through ${KILLS} SIGKILLs, where an in-place rewrite breaks it`, { timeout: 180_000 }, async () => {
    const delay = (i: number) => 20 + ((i * 37) % 180);
    const atomic: string[] = [];
    for (let i = 0; i < KILLS; i += 1) atomic.push(await killMidRewrite(join(dir, 'atomic.json'), 'atomic', delay(i)));
    expect(atomic).toEqual(atomic.map(() => 'whole'));
    // The control: the same kills on StormDB's own engine break its file (about one kill in eight lands mid-write).
    let kills = 0;
    while (kills < CONTROL_KILLS && (await killMidRewrite(join(dir, 'in-place.json'), 'in-place', delay(kills))) === 'whole') kills += 1;
    expect(kills, `no in-place rewrite was caught in ${CONTROL_KILLS} kills`).toBeLessThan(CONTROL_KILLS);
    // Temporary files a kill left behind are only ever beside the pool, never in its place.
    expect((await readdir(dir)).filter((name) => !name.endsWith('.tmp')).sort()).toEqual(['atomic.json', 'in-place.json']);
  });

  it("is how npm start's user pool writes, and start-up clears what a kill left behind", async () => {
    const cognitoDir = join(dir, 'cognito');
    mkdirSync(join(cognitoDir, 'db'), { recursive: true });
    writeFileSync(join(cognitoDir, 'db', 'local_pool.json.4242.deadbeef.tmp'), '{"half":');
    const cognito = await startCognito(cognitoDir, { sesEndpoint: 'http://127.0.0.1:9', from: 'no-reply@rampart.example', productName: 'Rampart' });
    try {
      const cognitoRequire = createRequire(createRequire(import.meta.url).resolve('cognito-local'));
      expect(writesAtomically((cognitoRequire('stormdb') as { localFileEngine: object }).localFileEngine)).toBe(true);
      expect((await readdir(join(cognitoDir, 'db'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await cognito.close();
    }
  });
});
