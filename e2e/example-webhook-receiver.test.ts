/**
 * examples/webhook-receiver/README.md, step by step as written: its shell blocks are read from the
 * README and run in order, with only the placeholders filled in (`<no>`, `whsec_…`, `trove_sk_…`)
 * and the ports made free ones. `npm start` of the repository (install, build, start) is stood in
 * for by a server process on a fresh data directory, with the environment its line sets.
 */
import { type ChildProcess, exec, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { freePort } from "@trove/test-support/ports";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, expect, it, vi } from "vitest";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const README = readFileSync(join(REPO_ROOT, "examples/webhook-receiver/README.md"), "utf8");
const execAsync = promisify(exec);
/** A 1×1 PNG: something the server stores as an image. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** The README's numbered steps' shell blocks, in order. */
function shellBlocks(): string[] {
  const section = README.slice(README.indexOf("## Run it"), README.indexOf("## Rotating"));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    (match[1] as string)
      .split("\n")
      .map((line) => line.trim())
      .join("\n")
      .trim(),
  );
}

/** `A=1 B=2 cmd ...` -> { A: "1", B: "2" }. */
function leadingEnv(line: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const match of line.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)(?=\s)/g))
    env[match[1] as string] = match[2] as string;
  return env;
}

let server: ServerProcess | undefined;
let receiver: ChildProcess | undefined;
let scratch: string | undefined;
afterAll(async () => {
  // The receiver runs as npm, tsx and node: its process group goes together.
  if (receiver?.pid !== undefined && receiver.exitCode === null) process.kill(-receiver.pid, "SIGTERM");
  await server?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

it("examples/webhook-receiver's README works step by step as written", async () => {
  const [startServer, register, startReceiver, restartServer, upload] = shellBlocks();
  expect(startServer).toBe("npm start");
  expect(restartServer).toMatch(/npm start$/);
  const receiverPort = String(await freePort());
  const withPort = (block: string) => block.replaceAll("127.0.0.1:4000", `127.0.0.1:${receiverPort}`);

  // 1. The first start: the workspace number is printed; then the server stops. It runs with the
  // environment of step 4's start, the same server started again.
  server = await startServerProcess(leadingEnv(restartServer as string));
  const running = server;
  const workspaceNo = await vi.waitFor(() => {
    const found = /\(workspace_no ([0-9a-z]+)\)/.exec(running.output())?.[1];
    if (!found) throw new Error(`no workspace number printed:\n${running.output()}`);
    return found;
  });
  await server.kill();

  // 2. Register the receiver and print the secret, from the repository root, the server stopped.
  const commandEnv = { ...process.env, TROVE_DATA_DIR: server.dataDir, LOG_LEVEL: "warn" };
  const registered = await execAsync(withPort(register as string).replaceAll("<no>", workspaceNo), {
    cwd: REPO_ROOT,
    env: commandEnv,
    shell: "/bin/sh",
  });
  const secret = /whsec_[A-Za-z0-9+/=]+/.exec(registered.stdout)?.[0];
  expect(secret, registered.stdout + registered.stderr).toBeDefined();

  // 3. The receiver, with that secret, from the README's directory.
  let receiverLog = "";
  receiver = spawn("/bin/sh", ["-c", (startReceiver as string).replace("whsec_…", secret as string)], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: receiverPort },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  for (const stream of [receiver.stdout, receiver.stderr])
    stream?.on("data", (chunk: Buffer) => {
      receiverLog += chunk.toString();
    });
  await vi.waitFor(
    () => {
      if (!receiverLog.includes("listening on")) throw new Error(`receiver not listening:\n${receiverLog}`);
    },
    { timeout: 60_000, interval: 100 },
  );

  // 4. The server again, on the same data.
  await server.restart();

  // 5. The upload, with the private key, from a directory holding cat.png.
  scratch = await mkdtemp(join(tmpdir(), "trove-webhook-readme-"));
  await writeFile(join(scratch, "cat.png"), PNG);
  const uploaded = await execAsync(
    (upload as string)
      .replace("trove_sk_…", server.keys.private)
      .replaceAll("http://127.0.0.1:3000", server.baseUrl),
    { cwd: scratch, shell: "/bin/sh" },
  );
  expect(JSON.parse(uploaded.stdout).success, uploaded.stdout).toBe(true);

  // The receiver verified the delivery and logged the event.
  await vi.waitFor(
    () => {
      if (!/file\.uploaded\s+photos\/cat\.png/.test(receiverLog))
        throw new Error(`no file.uploaded logged:\n${receiverLog}\n${running.output()}`);
    },
    { timeout: 60_000, interval: 200 },
  );
  expect(receiverLog).not.toMatch(/rejected|invalid signature/i);
});
