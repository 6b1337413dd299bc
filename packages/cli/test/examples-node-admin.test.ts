// examples/node-admin, started the way its README says (`npm start`), against the real server.
// Its start script runs the SDK from source (the `dev-source` condition), so no build is needed.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createClient } from "@trove/sdk/node";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, expect, it } from "vitest";

const EXAMPLE_DIR = fileURLToPath(new URL("../../../examples/node-admin", import.meta.url));

let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess();
});

afterAll(async () => {
  await server?.stop();
});

function npmStart(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("npm", ["start", "--silent"], {
    cwd: EXAMPLE_DIR,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

it("manages folders and sources with the private key, keeps a masked secret, and cleans up", async () => {
  const result = await npmStart({ TROVE_API_KEY: server.keys.private, TROVE_BASE_URL: server.baseUrl });
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  const out = result.stdout;
  expect(out).toContain(`Trove admin example against ${server.baseUrl}`);
  expect(out).toMatch(/^ {2}created folder node-admin-\w+ \(folder_no \w+\)$/m);
  expect(out).toMatch(/^ {2}renamed drafts to final \(path node-admin-\w+\/final\)$/m);
  expect(out).toMatch(/^ {2}created source node-admin-\w+ \(id [0-9a-f-]{36}, type s3\)$/m);
  expect(out).toContain('"secret_key":"********"');
  expect(out).toContain("secret kept: secret_key is still set");
  expect(out).toContain("it is gone: reading it again answers 404");
  expect(out).toContain("Done: everything created was deleted again.");
  expect(out).not.toContain("example-secret-do-not-print");

  const trove = createClient({ apiKey: server.keys.private, baseUrl: server.baseUrl });
  expect((await trove.folders.list()).folders).toEqual([]);
  expect((await trove.sources.list()).sources).toEqual([]);
});

it("says what is wrong when the key is missing or public", async () => {
  const missing = await npmStart({ TROVE_API_KEY: "", TROVE_BASE_URL: server.baseUrl });
  expect(missing.code).not.toBe(0);
  expect(missing.stderr).toContain("Error: Set TROVE_API_KEY to a private key (trove_sk_…)");

  const publicKey = await npmStart({ TROVE_API_KEY: server.keys.public, TROVE_BASE_URL: server.baseUrl });
  expect(publicKey.code).not.toBe(0);
  expect(publicKey.stderr).toContain("TROVE_API_KEY must be a private key (trove_sk_…)");
});
