import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** the S3_* settings that reach this server */
  settings: {
    S3_ENDPOINT: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    S3_FORCE_PATH_STYLE: "true";
  };
  stop(): Promise<void>;
}

/**
 * An S3-protocol server (s3rver) on 127.0.0.1 with a random port, keeping its objects in a
 * temporary directory, with one empty bucket. Nothing leaves the machine.
 */
export async function startS3TestServer(bucket = "cartwheel-test"): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), "cartwheel-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    // s3rver accepts these fixed credentials and checks the request signatures made with them.
    settings: {
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
