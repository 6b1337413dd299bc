/**
 * The operator's `trove-server` commands beside a real running server on the embedded database
 * (PGlite, one process's database). A command must never report success for a write the server
 * does not see: beside a running server it refuses (exit 1, naming the server's pid and what to
 * do); once the server is gone it works, and the next start sees what it wrote. The hint the
 * banner prints for a new key runs as printed from the repository root.
 */
import { exec } from "node:child_process";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { runServerCommand, type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const execAsync = promisify(exec);
const KEY = /trove_sk_[0-9A-Za-z]{32}/;

interface CommandFailure {
  code: number;
  stdout: string;
  stderr: string;
}

/** The first group of `pattern` in what the server printed, once it has arrived (the pipe lags). */
async function printed(server: ServerProcess, pattern: RegExp): Promise<string> {
  return vi.waitFor(
    () => {
      const found = pattern.exec(server.output())?.[1];
      if (found === undefined) throw new Error(`the server did not print ${pattern}:\n${server.output()}`);
      return found;
    },
    { timeout: 10_000, interval: 50 },
  );
}

async function filesWith(server: ServerProcess, key: string): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/v1/files`, { headers: { "x-api-key": key } });
  await response.body?.cancel();
  return response.status;
}

describe("trove-server commands beside a running server on PGlite", () => {
  let server: ServerProcess;
  let workspaceNo: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startServerProcess();
    workspaceNo = await printed(server, /Development workspace: .* \(workspace_no ([0-9a-z]+)\)/);
    env = { TROVE_DATA_DIR: server.dataDir };
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses while the server runs, with its pid and what to do; works once it is gone", async () => {
    const pid = /"pid":(\d+)/.exec(await readFile(`${server.dataDir}/pgdata.lock`, "utf8"))?.[1];
    expect(pid).toBeDefined();
    for (const args of [
      ["keys", "create", "--workspace", workspaceNo, "--type", "private"],
      ["transforms", "set", "--workspace", workspaceNo, "thumb", "w_100"],
    ]) {
      const failure = (await runServerCommand(args, env).then(
        () => undefined,
        (error: CommandFailure) => error,
      )) as CommandFailure | undefined;
      expect(failure, `${args.join(" ")} must fail`).toBeDefined();
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).not.toMatch(KEY);
      expect(failure?.stderr).toContain(
        `in use by a running trove-server (pid ${pid}, listening on ${server.baseUrl})`,
      );
      expect(failure?.stderr).toContain("TROVE_ADMIN_TOKEN");
    }

    // Killed, it leaves its lock behind: a lock whose process is gone does not hold anyone back.
    await server.kill();
    const key = (
      await runServerCommand(["keys", "create", "--workspace", workspaceNo, "--type", "private"], env)
    ).trim();
    expect(key).toMatch(KEY);
    await server.restart();
    expect(await filesWith(server, key)).toBe(200);
  });

  it("the banner's new-key hint runs as printed from the repository root", async () => {
    // A start that finds the development keys prints the hint.
    await server.kill();
    await server.restart();
    const hint = await printed(server, /^ {4}(npm run trove-server -- keys create .*)$/m);
    expect(hint).toBe(`npm run trove-server -- keys create --workspace ${workspaceNo} --type private`);
    await server.kill();
    const { stdout } = await execAsync(hint, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env, LOG_LEVEL: "warn" },
    });
    const key = KEY.exec(stdout)?.[0];
    expect(key).toBeDefined();
    await server.restart();
    expect(await filesWith(server, key as string)).toBe(200);
  });
});
