// Webhooks a receiver can verify: the secret `trove-server webhooks secret` shows, rotation with a
// grace period, workspace endpoints and every event type, retries then `failed` as the deliveries
// command shows it, ordering per subject, and retention of finished jobs. Receivers run on
// 127.0.0.1 (trusted through the test config's trustedRanges) and verify with standardwebhooks.
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { Command } from "commander";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { solid } from "../src/media/test-images.js";
import { forbidSystemDns, startTestServer, type TestServer } from "../src/network/test-doubles.js";
import { registerWebhookCommands } from "../src/webhooks/webhook-commands.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { directUpload, uploaded, waitFor } from "./uploads-helpers.js";

let restoreDns: () => void = () => {};
let receiver: TestServer;
let png: Buffer;
/** What the receiver answers (204 unless a test says otherwise). */
let answer: (res: ServerResponse) => void;

beforeAll(async () => {
  restoreDns = forbidSystemDns();
  png = await solid(20, 10, { r: 200, g: 10, b: 10 }, "png");
  receiver = await startTestServer((_req, res) => answer(res));
});
afterAll(async () => {
  await receiver?.close();
  restoreDns();
});
beforeEach(() => {
  answer = (res) => res.writeHead(204).end();
});

interface CliRun {
  code: number;
  out: string[];
  err: string[];
}

/** Runs `trove-server webhooks ...` against the test app's database and config. */
async function cli(t: TestApp, ...args: string[]): Promise<CliRun> {
  const run: CliRun = { code: 0, out: [], err: [] };
  const io = { out: (s: string) => run.out.push(s), err: (s: string) => run.err.push(s) };
  const program = new Command("trove-server")
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });
  registerWebhookCommands(program, { io, withDatabase: (fn) => fn({ prisma: t.app.db, config: t.config }) });
  try {
    await program.parseAsync(["webhooks", ...args], { from: "user" });
  } catch (error) {
    run.code = 1;
    run.err.push((error as Error).message);
  }
  return run;
}

function signatureHeaders(headers: IncomingHttpHeaders) {
  return {
    "webhook-id": String(headers["webhook-id"]),
    "webhook-timestamp": String(headers["webhook-timestamp"]),
    "webhook-signature": String(headers["webhook-signature"]),
  };
}

/** Whether `secret` verifies a recorded request. */
function verifies(secret: string, request: { body: string; headers: IncomingHttpHeaders }): boolean {
  try {
    new Webhook(secret).verify(request.body, signatureHeaders(request.headers));
    return true;
  } catch {
    return false;
  }
}

function requestsTo(path: string) {
  return receiver.requests.filter((r) => r.url === path);
}

describe("the signing secret: shown by the CLI, rotated with a grace period", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { trustedRanges: "127.0.0.0/8", workers: true, jobPollIntervalMs: 50 },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function uploadAndReceive(path: string) {
    uploaded(
      await directUpload(
        t,
        { file_name: `${path.slice(1)}.png`, webhook_url: `${receiver.origin}${path}` },
        { content: png },
      ),
    );
    return waitFor(() => requestsTo(path)[0]);
  }

  it("shows the secret deliveries are signed with; an unknown workspace is a clear error", async () => {
    const shown = await cli(t, "secret", "--workspace", t.workspace.workspaceNo);
    expect(shown.code).toBe(0);
    expect(shown.out).toEqual([expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/)]);
    const request = await uploadAndReceive("/secret");
    expect(verifies(shown.out[0] as string, request)).toBe(true);

    const missing = await cli(t, "secret", "--workspace", "nosuchws");
    expect(missing.code).toBe(1);
    expect(missing.err.join("\n")).toContain("No workspace nosuchws");
    const badGrace = await cli(t, "rotate", "--workspace", t.workspace.workspaceNo, "--grace", "soon");
    expect(badGrace.code).toBe(1);
    expect(badGrace.err.join("\n")).toMatch(/duration/);
  });

  it("signs with both secrets during the grace, then with the new one only", async () => {
    const old = (await cli(t, "secret", "-w", t.workspace.workspaceNo)).out[0] as string;
    const rotated = await cli(t, "rotate", "-w", t.workspace.workspaceNo, "--grace", "24h");
    expect(rotated.code).toBe(0);
    const fresh = rotated.out[0] as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(old);
    expect(rotated.err.join("\n")).toMatch(/both signatures until \d{4}-/);
    expect((await cli(t, "secret", "-w", t.workspace.workspaceNo)).out).toEqual([fresh]);

    const during = await uploadAndReceive("/during-grace");
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(fresh, during)).toBe(true);
    expect(verifies(old, during)).toBe(true);

    // The grace is over (moved into the past rather than waited for).
    await t.app.db.workspace.update({
      where: { id: t.workspace.id },
      data: { previousWebhookSecretExpiresAt: new Date(Date.now() - 1000) },
    });
    const after = await uploadAndReceive("/after-grace");
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verifies(fresh, after)).toBe(true);
    expect(verifies(old, after)).toBe(false);
  });

  it("--grace 0 drops the old secret at once", async () => {
    const old = (await cli(t, "secret", "-w", t.workspace.workspaceNo)).out[0] as string;
    const fresh = (await cli(t, "rotate", "-w", t.workspace.workspaceNo, "--grace", "0")).out[0] as string;
    const request = await uploadAndReceive("/no-grace");
    expect(verifies(fresh, request)).toBe(true);
    expect(verifies(old, request)).toBe(false);
  });
});
