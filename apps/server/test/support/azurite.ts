/**
 * Starts Azurite (Microsoft's Azure Storage emulator), blob service only, as a child process on
 * 127.0.0.1 with a random port and in-memory storage, for tests of `azure` sources. A child
 * process, as with s3rver: an emulator crash must not take the test runner down.
 *
 * It runs with telemetry off (Azurite reports usage to Microsoft by default, and tests must not
 * send a packet off loopback) and with path-style URLs always (`--disableProductStyleUrl`), so the
 * account is the first path segment whatever name the test resolves to 127.0.0.1.
 *
 *   const azurite = await startAzurite();
 *   try {
 *     await azurite.putBlob("photos", "shoe.jpg", bytes, "image/jpeg");
 *     createAzureOriginReader({ connection_string: azurite.connectionString(), container_name: "photos" }, …);
 *   } finally { await azurite.stop(); }
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  AccountSASPermissions,
  AccountSASResourceTypes,
  AccountSASServices,
  BlobServiceClient,
  generateAccountSASQueryParameters,
  SASProtocol,
  StorageSharedKeyCredential,
} from "@azure/storage-blob";

/** Azurite's one built-in account, with its published development key. */
export const AZURITE_ACCOUNT = "devstoreaccount1";
export const AZURITE_ACCOUNT_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

export interface AzuriteHandle {
  host: string;
  port: number;
  /** `http://127.0.0.1:<port>/devstoreaccount1` */
  blobEndpoint: string;
  /** Account-key connection string; `endpoint` replaces the BlobEndpoint (a name the test resolves). */
  connectionString(options?: { endpoint?: string; accountKey?: string }): string;
  /** SAS connection string (an account SAS, read-only unless told), same `endpoint` option. */
  sasConnectionString(options?: { endpoint?: string; permissions?: string }): string;
  /** Creates the container when missing and uploads `body` as blob `name`. */
  putBlob(container: string, name: string, body: Buffer | string, contentType?: string): Promise<void>;
  /** stdout/stderr seen so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

function azuriteBlobBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("azurite/package.json")), "dist", "src", "blob", "main.js");
}

export async function startAzurite(options: { startTimeoutMs?: number } = {}): Promise<AzuriteHandle> {
  const directory = await mkdtemp(join(tmpdir(), "trove-azurite-"));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      azuriteBlobBin(),
      "--blobHost",
      "127.0.0.1",
      "--blobPort",
      "0",
      "--inMemoryPersistence",
      "--loose",
      "--skipApiVersionCheck",
      "--disableTelemetry",
      "--disableProductStyleUrl",
    ],
    // In memory, so nothing is written; the working directory is a temporary one all the same.
    { cwd: directory, stdio: ["ignore", "pipe", "pipe"] },
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
        () => reject(new Error(`azurite did not start:\n${output}`)),
        options.startTimeoutMs ?? 30_000,
      );
      const onData = () => {
        const match = /successfully listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          child.stdout?.off("data", onData);
          resolve(Number(match[1]));
        }
      };
      child.stdout?.on("data", onData);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`azurite exited with ${code}:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const host = "127.0.0.1";
  const blobEndpoint = `http://${host}:${port}/${AZURITE_ACCOUNT}`;
  const credential = new StorageSharedKeyCredential(AZURITE_ACCOUNT, AZURITE_ACCOUNT_KEY);
  const admin = new BlobServiceClient(blobEndpoint, credential);

  return {
    host,
    port,
    blobEndpoint,
    connectionString: ({ endpoint = blobEndpoint, accountKey = AZURITE_ACCOUNT_KEY } = {}) =>
      `DefaultEndpointsProtocol=http;AccountName=${AZURITE_ACCOUNT};AccountKey=${accountKey};BlobEndpoint=${endpoint};`,
    sasConnectionString: ({ endpoint = blobEndpoint, permissions = "r" } = {}) => {
      const sas = generateAccountSASQueryParameters(
        {
          expiresOn: new Date(Date.now() + 60 * 60 * 1000),
          permissions: AccountSASPermissions.parse(permissions),
          resourceTypes: AccountSASResourceTypes.parse("sco").toString(),
          services: AccountSASServices.parse("b").toString(),
          protocol: SASProtocol.HttpsAndHttp,
        },
        credential,
      ).toString();
      return `BlobEndpoint=${endpoint};SharedAccessSignature=${sas}`;
    },
    async putBlob(container, name, body, contentType) {
      const containerClient = admin.getContainerClient(container);
      await containerClient.createIfNotExists();
      const data = typeof body === "string" ? Buffer.from(body) : body;
      await containerClient.getBlockBlobClient(name).uploadData(data, {
        ...(contentType ? { blobHTTPHeaders: { blobContentType: contentType } } : {}),
      });
    },
    output: () => output,
    stop,
  };
}
