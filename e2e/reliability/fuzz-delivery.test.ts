/**
 * Reliability 1b: property-based fuzzing of the delivery host, the public, keyless place where
 * untrusted transform strings reach the image renderer. Properties: no 5xx, an answer to every
 * request, every error JSON in the generic envelope, the process stays up. Requests:
 * `support/fuzz-delivery.ts`. Short profile (`npm test`): 300 requests; long
 * (`TROVE_LONG_TESTS=1`, CI): 1,000; full: 5,000.
 */

import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkDeliveryResponse,
  type DeliveryContext,
  type DeliveryRequest,
  deliveryRequestArb,
  describeDeliveryRequest,
  sendDeliveryRequest,
} from "../support/fuzz-delivery";
import { gradientPng } from "../support/png";
import { byProfile, PROFILE, reportFigures, uploadSmallFile } from "../support/reliability-profile";

const RUNS = Number(process.env.TROVE_FUZZ_RUNS) || byProfile({ short: 300, long: 1_000, full: 5_000 });
const TIME_LIMIT_MS = byProfile({ short: 300_000, long: 300_000, full: 900_000 });

describe(`fuzzing the delivery host (${PROFILE} profile, ${RUNS} requests)`, () => {
  let server: ServerProcess;
  let ctx: DeliveryContext;

  beforeAll(async () => {
    server = await startServerProcess({ TROVE_RATE_LIMIT_MAX: "100000000", LOG_LEVEL: "error" });
    const image = await uploadSmallFile(
      server.baseUrl,
      server.keys.private,
      "photo.png",
      gradientPng(96, 64),
    );
    const text = await uploadSmallFile(server.baseUrl, server.keys.private, "notes.txt");
    const svg = await uploadSmallFile(
      server.baseUrl,
      server.keys.public,
      "logo.svg",
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>',
    );
    expect(svg.mime_type).toBe("image/svg+xml");
    const imageUrl = new URL(String(image.url));
    const [, workspaceNo] = imageUrl.pathname.replace(/^\/assets/, "").split("/");
    expect(image.mime_type).toBe("image/png");
    ctx = {
      assetsUrl: server.assetsUrl,
      workspaceNo: workspaceNo ?? "",
      imagePath: String(image.name),
      textPath: String(text.name),
      svgPath: String(svg.name),
    };
    // The fixture itself is served, so failures below are about the fuzzed parts.
    const served = await fetch(`${ctx.assetsUrl}/${ctx.workspaceNo}/w_10/${ctx.imagePath}`);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
  });

  afterAll(async () => {
    await server?.stop();
  });

  it(
    "answers every generated delivery request without a 5xx, errors in the envelope, and stays up",
    async () => {
      const statuses: Record<string, number> = {};
      const failures: { request: string; problems: string[] }[] = [];
      let sent = 0;
      let transformed = 0;
      const started = Date.now();

      const property = fc.asyncProperty(deliveryRequestArb(ctx), async (req: DeliveryRequest) => {
        let problems: string[];
        let status = 0;
        try {
          const res = await sendDeliveryRequest(ctx, req);
          status = res.status;
          problems = checkDeliveryResponse(req, res);
        } catch (cause) {
          problems = [`no response: ${String(cause)} ${String((cause as { cause?: unknown }).cause ?? "")}`];
        }
        sent += 1;
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status === 200 && req.path.split("/").length > 3) transformed += 1;
        if (problems.length > 0) {
          if (failures.length < 50) failures.push({ request: describeDeliveryRequest(req), problems });
          throw new Error(`${describeDeliveryRequest(req)}\n→ ${status}\n${problems.join("\n")}`);
        }
        if (sent % 200 === 0) {
          const health = await fetch(`${server.baseUrl}/healthz`);
          if (health.status !== 200) throw new Error(`/healthz ${health.status} after ${sent} requests`);
        }
      });

      let error: unknown;
      try {
        await fc.assert(property, {
          numRuns: RUNS,
          endOnFailure: false,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
        });
      } catch (e) {
        error = e;
      }
      const health = await fetch(`${server.baseUrl}/healthz`);
      reportFigures("fuzz-delivery", {
        profile: PROFILE,
        requests: sent,
        durationMs: Date.now() - started,
        statuses,
        answeredFromATransformPath: transformed,
        healthzAfter: health.status,
        failures,
      });
      if (error) throw error;
      expect(health.status).toBe(200);
      expect(sent).toBeGreaterThanOrEqual(RUNS);
      // The generator reaches the renderer, not only the parser's refusals.
      expect(transformed).toBeGreaterThan(RUNS / 20);
      expect(server.output()).not.toMatch(/FATAL|uncaught|unhandled/i);
    },
    TIME_LIMIT_MS + 60_000,
  );
});
