/**
 * Starts s3rver (a fake S3 server, patched in patches/s3rver.patch with ListParts,
 * AbortMultipartUpload and S3-like part validation) as a child process on 127.0.0.1 with a
 * random port and a temporary data directory, with one bucket created. A child process, because
 * s3rver can crash on requests it does not expect, and that must not take the test runner down.
 *
 *   const s3 = await startS3rver();
 *   try { ... new S3StorageDriver(s3.driverConfig()) ... } finally { await s3.stop(); }
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface S3rverOptions {
  bucket?: string;
  /** Lowers ListParts' page size (patched s3rver reads S3RVER_MAX_PARTS_PER_PAGE) to test paging. */
  maxPartsPerPage?: number;
  startTimeoutMs?: number;
}

export interface S3rverHandle {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  host: string;
  port: number;
  bucket: string;
  region: string;
  accessKey: string;
  secretKey: string;
  /** s3rver's data directory. */
  directory: string;
  /** Fields for `S3StorageDriver`'s config. */
  driverConfig(): {
    endPoint: string;
    port: number;
    useSSL: false;
    region: string;
    bucket: string;
    accessKey: string;
    secretKey: string;
    pathStyle: true;
  };
  /** stderr/stdout seen so far, for failure messages. */
  output(): string;
  /** True while the child is running. */
  alive(): boolean;
  stop(): Promise<void>;
}

const ACCESS_KEY = "S3RVER";
const SECRET_KEY = "S3RVER";

function s3rverBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("s3rver/package.json")), "bin", "s3rver.js");
}

export async function startS3rver(options: S3rverOptions = {}): Promise<S3rverHandle> {
  const bucket = options.bucket ?? "trove-test";
  const directory = await mkdtemp(join(tmpdir(), "trove-s3rver-"));
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (options.maxPartsPerPage !== undefined) env.S3RVER_MAX_PARTS_PER_PAGE = String(options.maxPartsPerPage);
  const child: ChildProcess = spawn(
    process.execPath,
    [s3rverBin(), "-d", directory, "-a", "127.0.0.1", "-p", "0", "--silent", "--configure-bucket", bucket],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const append = (data: Buffer) => {
    output = (output + data.toString()).slice(-20_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  let exited = false;
  const exit = new Promise<void>((resolve) => {
    child.once("exit", () => {
      exited = true;
      resolve();
    });
  });
  // If the test process dies first, do not leave the server behind.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);

  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (!exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exit;
      clearTimeout(timer);
    }
    await rm(directory, { recursive: true, force: true });
  };

  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`s3rver did not start:\n${output}`)),
        options.startTimeoutMs ?? 15_000,
      );
      const onData = () => {
        const match = /S3rver listening on [^:\s]+:(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          child.stdout?.off("data", onData);
          resolve(Number(match[1]));
        }
      };
      child.stdout?.on("data", onData);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited with ${code}:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const host = "127.0.0.1";
  return {
    endpoint: `http://${host}:${port}`,
    host,
    port,
    bucket,
    region: "us-east-1",
    accessKey: ACCESS_KEY,
    secretKey: SECRET_KEY,
    directory,
    driverConfig: () => ({
      endPoint: host,
      port,
      useSSL: false,
      region: "us-east-1",
      bucket,
      accessKey: ACCESS_KEY,
      secretKey: SECRET_KEY,
      pathStyle: true,
    }),
    output: () => output,
    alive: () => !exited,
    stop,
  };
}
