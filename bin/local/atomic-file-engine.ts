/**
 * cognito-local keeps each user pool in a JSON file that StormDB rewrites in place on every change
 * (`fs.writeFile`: truncate, then write). `npm start` killed during that write leaves the file empty or
 * cut short: an empty file loads as an empty pool (every account gone), a cut one stops start-up.
 * This swaps StormDB's file engine write for one that writes a temporary file beside it and renames
 * it over the old one (a rename is atomic on POSIX file systems), so the file on disk is always one
 * whole version. Writes to one file go one after the other, in the order they were asked for, so an
 * older state can never land after a newer one.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

interface FileEngine {
  path: string;
  async: boolean;
  serialize(data: unknown): string;
  write(data: unknown): Promise<void> | null;
}

const patched = new WeakSet<object>();
const pending = new Map<string, Promise<void>>();

export async function writeFileAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(text, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export function writesAtomically(engineClass: object): boolean {
  return patched.has(engineClass);
}

/** Makes a StormDB `localFileEngine` class (as the caller's copy of stormdb exports it) write atomically. */
export function makeStormDbWritesAtomic(engineClass: { prototype: FileEngine }): void {
  if (patched.has(engineClass)) return;
  patched.add(engineClass);
  engineClass.prototype.write = function write(this: FileEngine, data: unknown) {
    // Serialised now: the caller goes on changing the state it passed.
    const text = this.serialize(data);
    const previous = pending.get(this.path) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => writeFileAtomically(this.path, text));
    pending.set(this.path, next);
    void next.finally(() => {
      if (pending.get(this.path) === next) pending.delete(this.path);
    }).catch(() => undefined);
    return next;
  };
}
