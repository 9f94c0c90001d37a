import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type Emulator } from '../../bin/local/emulators.js';
import { LOCAL_CREDENTIALS } from '../../lambdas/composition/aws.js';
import { ASSET_CLEANUP_SOURCE, ASSET_MANIFEST_KEY, ASSET_RETENTION_DAYS, buildAssetKeys, RETIRED_STATE_KEY } from '../../lib/site/asset-retention.js';

/**
 * Issue 30 item 7: a deploy keeps the previous build's hashed assets, and the daily cleanup deletes
 * one only once it has been out of the current build for a week. The cleanup's very source (the
 * inline code the template ships) runs against s3rver, with a clock the test moves.
 */
const DAY = 86_400_000;
const BUCKET = 'site';
let s3: Emulator;
let client: S3Client;
let dir: string;
let now = Date.parse('2026-12-01T03:00:00Z');

type Cleanup = () => Promise<{ deleted?: number; retired?: number; skipped?: string }>;

/** The shipped handler's `makeHandler`, loaded from ASSET_CLEANUP_SOURCE as Lambda's runtime would (CommonJS). */
function cleanup(): Cleanup {
  const module = { exports: {} as { makeHandler(s3: S3Client, bucket: string, now: () => number): Cleanup } };
  new Function('require', 'module', 'exports', ASSET_CLEANUP_SOURCE)(createRequire(import.meta.url), module, module.exports);
  return module.exports.makeHandler(client, BUCKET, () => now);
}

const put = (Key: string, Body: string) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body }));
/** A deploy as lib/site/site.ts makes it: the build's assets uploaded (never pruned), then its manifest. */
async function deploy(assets: string[]): Promise<void> {
  for (const key of assets) await put(key, `/* ${key} */`);
  await put(ASSET_MANIFEST_KEY, JSON.stringify({ prefix: 'assets/', assets }));
}
async function keys(): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'assets/' }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'rampart-assets-'));
  s3 = await startS3(path.join(dir, 's3'));
  client = new S3Client({ region: 'ap-southeast-2', endpoint: s3.endpoint, credentials: LOCAL_CREDENTIALS, forcePathStyle: true });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
}, 30_000);

afterAll(async () => {
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('site asset retention', () => {
  it('lists a build’s assets as S3 keys, nested folders included', () => {
    const dist = path.join(dir, 'dist');
    mkdirSync(path.join(dist, 'assets', 'fonts'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(dist, 'assets', 'app-1a2b.js'), '');
    writeFileSync(path.join(dist, 'assets', 'fonts', 'inter-3c4d.woff2'), '');
    expect(buildAssetKeys(dist, 'assets/')).toEqual(['assets/app-1a2b.js', 'assets/fonts/inter-3c4d.woff2']);
  });

  it('does nothing before a deploy has written its manifest', async () => {
    await put('assets/stray-0000.js', 'x');
    expect(await cleanup()()).toEqual({ skipped: 'no asset manifest' });
    expect(await keys()).toEqual(['assets/stray-0000.js']);
  });

  it('keeps a retired chunk for a week from the first run after the deploy, then deletes it; current and rolled-back chunks stay', async () => {
    const run = cleanup();
    // Build 1, then build 2 the same day: app changed, vendor unchanged (not re-uploaded).
    await deploy(['assets/app-1111.js', 'assets/vendor-aaaa.js', 'assets/lazy-page-1111.js']);
    await deploy(['assets/app-2222.js', 'assets/vendor-aaaa.js', 'assets/lazy-page-2222.js']);
    // The stray object is not in the build either: retired from now too.
    expect(await run()).toEqual({ deleted: 0, retired: 3 });
    const state = JSON.parse(await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: RETIRED_STATE_KEY }))).Body!.transformToString()) as Record<string, string>;
    expect(Object.keys(state).sort()).toEqual(['assets/app-1111.js', 'assets/lazy-page-1111.js', 'assets/stray-0000.js']);

    // A day short of the week: an open browser on build 1 still gets its lazy page.
    now += (ASSET_RETENTION_DAYS - 1) * DAY;
    expect(await run()).toEqual({ deleted: 0, retired: 3 });
    expect(await keys()).toContain('assets/lazy-page-1111.js');

    // Meanwhile build 3 rolls app back to 1111: current again, no longer retired; 2222's chunks retire now.
    await deploy(['assets/app-1111.js', 'assets/vendor-aaaa.js', 'assets/lazy-page-2222.js']);
    expect(await run()).toEqual({ deleted: 0, retired: 3 });

    // A week after they retired: build 1's old lazy page and the stray go; build 2's app (retired a day ago) stays.
    now += DAY;
    expect(await run()).toEqual({ deleted: 2, retired: 1 });
    expect(await keys()).toEqual(['assets/app-1111.js', 'assets/app-2222.js', 'assets/lazy-page-2222.js', 'assets/vendor-aaaa.js']);

    now += (ASSET_RETENTION_DAYS - 1) * DAY;
    expect(await run()).toEqual({ deleted: 1, retired: 0 });
    expect(await keys()).toEqual(['assets/app-1111.js', 'assets/lazy-page-2222.js', 'assets/vendor-aaaa.js']);
    // Only assets/ is ever touched: the manifest and the cleanup's list stay.
    const others = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: '_deploy/' }));
    expect((others.Contents ?? []).map((o) => o.Key).sort()).toEqual([ASSET_MANIFEST_KEY, RETIRED_STATE_KEY]);
  });
});
