/**
 * s3rver (patched, see patches/s3rver.patch) in a child process on 127.0.0.1 with one bucket,
 * as apps/server/test/support/s3rver.ts starts it: a fake S3 that crashes on some requests must
 * not take the bench down.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type Child, spawnChild } from "@trove/test-support/children";

export interface S3rver {
  endpoint: string;
  port: number;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
  pid: number;
  child: Child;
  stop(): Promise<void>;
}

export async function startS3rver(bucket = "trove-bench"): Promise<S3rver> {
  const require = createRequire(import.meta.url);
  const bin = join(dirname(require.resolve("s3rver/package.json")), "bin", "s3rver.js");
  const directory = await mkdtemp(join(tmpdir(), "trove-bench-s3rver-"));
  const child = spawnChild(process.execPath, [
    bin,
    "-d",
    directory,
    "-a",
    "127.0.0.1",
    "-p",
    "0",
    "--silent",
    "--configure-bucket",
    bucket,
  ]);
  const stop = async () => {
    await child.stop(3000);
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 20_000;
    let port: number | undefined;
    while (port === undefined) {
      const match = /S3rver listening on [^:\s]+:(\d+)/.exec(child.output());
      if (match) port = Number(match[1]);
      else if (child.exited()) throw new Error(`s3rver exited:\n${child.output()}`);
      else if (Date.now() > deadline) throw new Error(`s3rver did not start:\n${child.output()}`);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return {
      endpoint: `http://127.0.0.1:${port}`,
      port,
      bucket,
      accessKey: "S3RVER",
      secretKey: "S3RVER",
      region: "us-east-1",
      pid: child.pid,
      child,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
