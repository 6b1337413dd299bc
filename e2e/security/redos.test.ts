/**
 * Regression for issue #13: a text upload whose head makes a backtracking regex explode. The SVG
 * sniffer once tested every text upload's head with a regex that took 1.4 s for 26 empty comments
 * and 4 times as long for each 2 more; 40 would hold the event loop for hours, and every other
 * request with it. Against the real server process, with the public key: the upload answers with
 * its stored type, and `/healthz` keeps answering while the upload is in flight.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadRecord } from "../support/upload-record.js";

// Upper bounds that only a stuck event loop breaks (the old sniffer needed hours), not benchmarks.
const HEALTH_BOUND_MS = 10_000;
const UPLOAD_BOUND_MS = 60_000;

const ATTACKS = [
  ["40 empty comments, then text", `${"<!---->".repeat(40)}x`],
  ["40 doctypes with internal subsets, then text", `${"<!DOCTYPE a []>".repeat(40)}x`],
] as const;

/** `GET /healthz` back to back until `pending` settles; each must answer within the bound. */
async function probeHealthWhile(baseUrl: string, pending: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void pending.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  const statuses: number[] = [];
  do {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(HEALTH_BOUND_MS) });
    } catch (error) {
      throw new Error(`GET /healthz got no answer within ${HEALTH_BOUND_MS} ms during the upload`, {
        cause: error,
      });
    }
    await response.arrayBuffer();
    statuses.push(response.status);
  } while (!settled);
  return statuses;
}

describe("regex denial of service (ReDoS) through a text upload", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess();
  });

  afterAll(async () => {
    if (!server) return;
    // A server stuck in a regex never runs its SIGTERM handler: after a failure, SIGKILL it.
    const stopped = server.stop();
    const stuck = await Promise.race([stopped.then(() => false), sleep(15_000, true, { ref: false })]);
    if (stuck) await server.kill();
    await stopped;
  });

  it.each(ATTACKS)("%s: stored as text/plain, and the server keeps answering", async (label, content) => {
    const name = `${label.replace(/[^a-z0-9]+/g, "-")}.txt`;
    const form = new FormData();
    form.set("file_name", name);
    form.set("file", new Blob([content], { type: "text/plain" }), name);
    const upload = fetch(`${server.baseUrl}/api/v1/uploads`, {
      method: "POST",
      headers: { "x-api-key": server.keys.public },
      body: form,
      signal: AbortSignal.timeout(UPLOAD_BOUND_MS),
    });

    const [health, response] = await Promise.all([probeHealthWhile(server.baseUrl, upload), upload]);

    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200)).toBe(true);
    expect(response.status).toBe(200);
    const body = uploadRecord(await response.json());
    expect(body).toMatchObject({ mime_type: "text/plain", extension: "txt", name });
  });
});
