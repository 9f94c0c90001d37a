/**
 * Two of the emulators `npm start` keeps on disk rewrite their files in place, so a kill mid-write
 * breaks what was there:
 * - cognito-local keeps each user pool in one JSON file that StormDB rewrites on every change
 *   (`fs.writeFile`: truncate, then write). Left empty, it loads as an empty pool (every account
 *   gone); cut short, it stops start-up.
 * - s3rver streams an object into its file and then writes the metadata beside it. Cut short, a
 *   report PDF is served truncated from then on (its checksum is recomputed from what is there).
 * Both are made to write a temporary file beside the real one and rename it over it (a rename is
 * atomic on POSIX file systems): the file on disk is always one whole version. DynamoDB's emulator
 * has its own repair (dynalite-indexes.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

const patched = new WeakSet<object>();

export async function writeFileAtomically(path: string, content: string | Buffer): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // No fsync: this guards against the process being killed (the kernel keeps what was written), which is
    // what happens to `npm start`; a lost machine is not worth a disk flush on every pool change.
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(content);
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Temporary files a kill left beside the real ones (`writeFileAtomically` names them `….{pid}.{hex}.tmp`). */
export function removeLeftoverTemporaries(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.\d+\.[0-9a-f]{8}\.tmp$/.test(entry.name)) rmSync(join(entry.parentPath, entry.name), { force: true });
  }
}

export function writesAtomically(patchedClass: object): boolean {
  return patched.has(patchedClass);
}

interface FileEngine {
  path: string;
  serialize(data: unknown): string;
  write(data: unknown): Promise<void> | null;
}

const pendingWrites = new Map<string, Promise<void>>();

/**
 * StormDB's `localFileEngine` (the copy cognito-local loads): each write replaces the file whole. Writes
 * to one file go one after the other, in the order asked, so an older state never lands after a newer one.
 */
export function makeStormDbWritesAtomic(engineClass: { prototype: FileEngine }): void {
  if (patched.has(engineClass)) return;
  patched.add(engineClass);
  engineClass.prototype.write = function write(this: FileEngine, data: unknown) {
    // Serialised now: the caller goes on changing the state it passed.
    const text = this.serialize(data);
    const next = (pendingWrites.get(this.path) ?? Promise.resolve()).catch(() => undefined).then(() => writeFileAtomically(this.path, text));
    pendingWrites.set(this.path, next);
    const forget = () => {
      if (pendingWrites.get(this.path) === next) pendingWrites.delete(this.path);
    };
    next.then(forget, forget);
    return next;
  };
}

interface StoredObject {
  bucket: string;
  key: string;
  content: Buffer | Readable;
  metadata: Record<string, string>;
}

interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
}

/**
 * s3rver's `FilesystemStore`: the checksum and metadata are written first, each whole, and the object
 * file last, by rename, so an object is either absent, the old one, or the new one complete. (Between
 * the metadata and the rename a kill leaves the old object beside the new metadata until the next
 * write; never a truncated object.) The metadata kept is s3rver's own choice (`S3Object.ALLOWED_METADATA`).
 */
export function makeS3rverWritesAtomic(storeClass: { prototype: FilesystemStore }, allowedMetadata: readonly string[]): void {
  if (patched.has(storeClass)) return;
  patched.add(storeClass);
  storeClass.prototype.putObject = async function putObject(this: FilesystemStore, object: StoredObject) {
    const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    const content = Buffer.isBuffer(object.content) ? object.content : await buffer(object.content);
    const md5 = createHash('md5').update(content).digest('hex');
    const metadata = Object.fromEntries(
      Object.entries(object.metadata).filter(([name]) => allowedMetadata.includes(name) || name.startsWith('x-amz-meta-')),
    );
    await writeFileAtomically(this.getResourcePath(object.bucket, object.key, 'object.md5'), md5);
    await writeFileAtomically(this.getResourcePath(object.bucket, object.key, 'metadata.json'), JSON.stringify(metadata, null, 2));
    await writeFileAtomically(objectPath, content);
    return { size: content.length, md5 };
  };
}
