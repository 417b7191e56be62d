import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** Where uploaded program documents are kept: any S3-compatible object storage. */
export interface DocumentStorage {
  /** Creates the bucket when it does not exist yet (called once at start). */
  ensureBucket(): Promise<void>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the object (none is fine). */
  delete(key: string): Promise<void>;
  close(): void;
}

export interface S3Settings {
  /** Unset: AWS's own endpoint for the region. */
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const notFound = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 || ['NotFound', 'NoSuchKey', 'NoSuchBucket'].includes(error.name));

/** The storage behind @aws-sdk/client-s3 (path-style addressing, so s3rver, MinIO & co. work too). */
export function s3Storage(settings: S3Settings): DocumentStorage {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: true,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    maxAttempts: 3,
  });
  const Bucket = settings.bucket;
  return {
    async ensureBucket() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        if (!notFound(error)) throw error;
        await client.send(new CreateBucketCommand({ Bucket }));
      }
    },
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }),
      );
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    close: () => client.destroy(),
  };
}

export interface EmbeddedS3 {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  close(): Promise<void>;
}

/**
 * An S3-compatible server (s3rver) in this process on 127.0.0.1 and a free port, keeping the objects as
 * files under `dir`: the single-process default when no S3 account is configured, and the tests' server.
 * s3rver accepts the fixed credentials S3RVER/S3RVER.
 */
export async function startEmbeddedS3(dir: string, bucket = 'program-documents'): Promise<EmbeddedS3> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    bucket,
    async close() {
      // Keep-alive connections of S3 clients would hold close() open.
      server.httpServer?.closeAllConnections();
      await server.close();
    },
  };
}
