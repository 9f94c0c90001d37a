import { GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { BlobStore } from '../domain/ports.js';

export class S3Blobs implements BlobStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: Uint8Array | string, contentType: string, options: { contentDisposition?: string } = {}): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType, ContentDisposition: options.contentDisposition }),
    );
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.Body ? await result.Body.transformToByteArray() : undefined;
    } catch (error) {
      if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      // HEAD has no body, so a missing object is a bare 404 (NotFound), not NoSuchKey. Without
      // s3:ListBucket (functions get object permissions only) S3 says 403 for a missing object
      // instead: read as absent too. A real permission fault then shows on the put that follows.
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (error instanceof NotFound || (error as Error).name === 'NotFound' || status === 404 || status === 403) return false;
      throw error;
    }
  }

  signedUrl(key: string, expiresInSeconds: number): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: expiresInSeconds });
  }
}
