import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { resolveConfig } from "../src/config.js";
import type { Workspace } from "../src/generated/prisma/client.js";
import { startServer, startupBanner } from "../src/server.js";

it("starts on loopback, prints URLs and the new development keys once, and closes cleanly", async () => {
  const dir = await mkdtemp(join(tmpdir(), "trove-server-"));
  const printed: string[] = [];
  try {
    const config = resolveConfig({
      port: 0,
      host: "127.0.0.1",
      dataDir: dir,
      database: { kind: "pglite", dataDir: join(dir, "pgdata") },
      secretKey: randomBytes(32),
      seedDev: true,
      logLevel: "silent",
    });
    const first = await startServer(config, { print: (s) => printed.push(s), handleSignals: false });
    try {
      const res = await fetch(`${first.address}/healthz`);
      expect(res.status).toBe(200);
      const ready = await fetch(`${first.address}/readyz`);
      expect(await ready.json()).toEqual({ status: "ready", database: "pglite" });
    } finally {
      await first.close();
    }
    const banner = printed.join("\n");
    expect(banner).toContain("/api/v1");
    expect(banner).toContain("/openapi.json");
    expect(banner).toContain(`data        ${dir}`);
    expect(banner).toMatch(/public key\s+trove_pk_[0-9A-Za-z]{32}/);
    expect(banner).toMatch(/private key\s+trove_sk_[0-9A-Za-z]{32}/);
    expect(banner).toMatch(/Webhook signing secret of workspace \w+: whsec_[A-Za-z0-9+/]{43}=/);

    // Restart on the same data directory: data kept, no new keys.
    printed.length = 0;
    const second = await startServer(config, { print: (s) => printed.push(s), handleSignals: false });
    await second.close();
    expect(printed.join("\n")).not.toMatch(/trove_[ps]k_[0-9A-Za-z]{32}/);
    expect(printed.join("\n")).toContain("already exist");
    expect(printed.join("\n")).not.toContain("whsec_");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

it("prints keys set in the environment by prefix only: the operator has them, logs should not", () => {
  const envKey = `trove_sk_${"Ab3".repeat(10)}xy`;
  const generated = `trove_pk_${"Zz9".repeat(10)}qq`;
  const config = resolveConfig({ devKeys: { privateKey: envKey } });
  const workspace = { name: "Development", workspaceNo: "1001" } as Workspace;
  const banner = startupBanner(config, "http://127.0.0.1:3000", {
    workspace,
    workspace2: undefined,
    createdWorkspace: true,
    webhookSecrets: [],
    created: [
      { type: "private", key: envKey, workspaceNo: "1001" },
      { type: "public", key: generated, workspaceNo: "1001" },
    ],
  });
  expect(banner).not.toContain(envKey);
  expect(banner).toContain("trove_sk_Ab3Ab3Ab... (set in the environment)");
  // A generated key is shown in full: this is the only time it can be.
  expect(banner).toContain(generated);
});
