import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writesAtomically } from '../../bin/local/atomic-writes.js';
import { startCognito, startS3 } from '../../bin/local/emulators.js';
import { OBJECT_BYTES, POOL_USERS } from './fixtures/rewrite-until-killed.js';

/**
 * Issue 11 "Faults": two emulators rewrote their files in place, so `npm start` killed mid-write broke
 * them — cognito-local's user pool (one JSON file: left empty, every account gone; cut short, start-up
 * fails) and s3rver's objects (a report PDF served truncated from then on). `npm start` now writes both
 * through a temporary file and a rename (bin/local/atomic-writes.ts). A child process rewrites a 4 MB
 * pool or object nonstop and is killed with SIGKILL at a chosen moment, again and again; after every
 * kill the file must be one whole version. The emulators' own writes run the same way as the control,
 * to show the kills do land mid-write.
 */
const KILLS = 12;
const CONTROL_KILLS = 60;
const FIXTURE = join(import.meta.dirname, 'fixtures', 'rewrite-until-killed.ts');
const require = createRequire(import.meta.url);
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rampart-kill-write-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Kind = 'pool' | 'object';
type Mode = 'atomic' | 'in-place';

async function poolState(file: string): Promise<'whole' | 'broken'> {
  try {
    const pool = JSON.parse(await readFile(file, 'utf8')) as { version?: number; Users?: unknown[] };
    return typeof pool.version === 'number' && pool.Users?.length === POOL_USERS ? 'whole' : 'broken';
  } catch {
    return 'broken';
  }
}

/** Read back through s3rver itself, as the reports adapter would be served it. */
async function objectState(storeDir: string): Promise<'whole' | 'broken'> {
  const Store = require('s3rver/lib/stores/filesystem') as new (dir: string) => {
    getObject(bucket: string, key: string): Promise<{ content: NodeJS.ReadableStream; metadata: Record<string, string> } | null>;
  };
  // A metadata file cut short makes s3rver throw (it would answer 500): broken too.
  const object = await new Store(storeDir).getObject('reports', 'audits/report.pdf').catch(() => null);
  if (!object) return 'broken';
  const chunks: Buffer[] = [];
  for await (const chunk of object.content) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const oneVersion = bytes.length === OBJECT_BYTES && bytes.every((byte) => byte === bytes[0]);
  return oneVersion && object.metadata['content-type'] === 'application/pdf' ? 'whole' : 'broken';
}

/** Starts a writer afresh, waits for its first version, lets it rewrite for `delayMs`, kills it; the file's state. */
async function killMidRewrite(kind: Kind, mode: Mode, delayMs: number): Promise<'whole' | 'broken'> {
  const path = join(dir, `${kind}-${mode}${kind === 'pool' ? '.json' : ''}`);
  // Each round starts afresh (StormDB will not even start on a broken file, which is the point).
  await rm(path, { recursive: true, force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, kind, path, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`writer exited early (${code})`)));
  });
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return kind === 'pool' ? poolState(path) : objectState(path);
}

const delay = (i: number) => 20 + ((i * 37) % 180);

describe.each<Kind>(['pool', 'object'])('npm start killed while a %s is written', (kind) => {
  it(`stays one whole version through ${KILLS} SIGKILLs, where the emulator's own write breaks it`, { timeout: 180_000 }, async () => {
    const atomic: string[] = [];
    for (let i = 0; i < KILLS; i += 1) atomic.push(await killMidRewrite(kind, 'atomic', delay(i)));
    expect(atomic).toEqual(atomic.map(() => 'whole'));
    // The control: the same kills on the emulator's own write break its file (typically within a few kills).
    let kills = 0;
    while (kills < CONTROL_KILLS && (await killMidRewrite(kind, 'in-place', delay(kills))) === 'whole') kills += 1;
    expect(kills, `no in-place rewrite was caught in ${CONTROL_KILLS} kills`).toBeLessThan(CONTROL_KILLS);
  });
});

describe("npm start's emulators", () => {
  it('write their pool and objects atomically, and start-up clears what a kill left behind', async () => {
    const cognitoDir = join(dir, 'cognito');
    const s3Dir = join(dir, 's3');
    mkdirSync(join(cognitoDir, 'db'), { recursive: true });
    mkdirSync(join(s3Dir, 'reports', 'audits'), { recursive: true });
    writeFileSync(join(cognitoDir, 'db', 'local_pool.json.4242.deadbeef.tmp'), '{"half":');
    writeFileSync(join(s3Dir, 'reports', 'audits', 'a.pdf._S3rver_object.4242.deadbeef.tmp'), '%PDF-');
    const cognito = await startCognito(cognitoDir, { sesEndpoint: 'http://127.0.0.1:9', from: 'no-reply@rampart.example', productName: 'Rampart' });
    const s3 = await startS3(s3Dir);
    try {
      const cognitoRequire = createRequire(require.resolve('cognito-local'));
      expect(writesAtomically((cognitoRequire('stormdb') as { localFileEngine: object }).localFileEngine)).toBe(true);
      expect(writesAtomically(require('s3rver/lib/stores/filesystem') as object)).toBe(true);
      expect(await readdir(join(cognitoDir, 'db'))).not.toContain('local_pool.json.4242.deadbeef.tmp');
      expect(await readdir(join(s3Dir, 'reports', 'audits'))).toEqual([]);
    } finally {
      await s3.close();
      await cognito.close();
    }
  });
});
