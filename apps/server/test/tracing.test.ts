// OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, spans go as OTLP/HTTP JSON to a receiver
// this test starts on 127.0.0.1. A request's span, its database and storage spans share one trace
// with intact parent links; an incoming traceparent is honoured; the webhook the request caused is
// sent with a traceparent of the same trace, by a delivery span that is the request's child.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTracing, type Tracing } from "../src/tracing/start-tracing.js";
import { createTestApp, type TestApp } from "./support/index.js";
import { startTestServer, type TestServer } from "./support/network-doubles.js";
import { solid } from "./support/test-images.js";
import { directUpload, pathOf, uploaded, waitFor } from "./uploads-helpers.js";

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

interface OtlpJson {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: ReceivedSpan[] }> }>;
}

let receiver: TestServer;
let tracing: Tracing | undefined;
let t: TestApp;
const spans: ReceivedSpan[] = [];

beforeAll(async () => {
  receiver = await startTestServer((req, res, body) => {
    if (req.url === "/v1/traces") {
      const message = JSON.parse(body) as OtlpJson;
      for (const resource of message.resourceSpans ?? [])
        for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      return;
    }
    res.writeHead(204).end();
  });
  tracing = await startTracing({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin,
    OTEL_SERVICE_NAME: "trove-test",
  });
  // Built after tracing started: the app installs its span wrappers only then.
  t = await createTestApp({
    config: { trustedRanges: "127.0.0.0/8", workers: true, jobPollIntervalMs: 50 },
  });
});
afterAll(async () => {
  await t?.close();
  await tracing?.shutdown();
  await receiver?.close();
});

/** Exports what has ended and waits until the span named `name` of `traceId` has arrived. */
async function spansOf(traceId: string, name: string): Promise<ReceivedSpan[]> {
  await tracing?.flush();
  return waitFor(() => {
    const trace = spans.filter((span) => span.traceId === traceId);
    return trace.some((span) => span.name === name) ? trace : undefined;
  });
}

function only(trace: ReceivedSpan[], name: string): ReceivedSpan {
  const found = trace.filter((span) => span.name === name);
  expect(found, name).toHaveLength(1);
  return found[0] as ReceivedSpan;
}

describe("tracing with an OTLP receiver on loopback", () => {
  it("is on: the test's environment named an endpoint", () => {
    expect(tracing).toBeDefined();
  });

  it("continues an incoming traceparent through the upload, its queries, storage and webhook", async () => {
    const traceId = randomBytes(16).toString("hex");
    const callerSpanId = randomBytes(8).toString("hex");
    const png = await solid(12, 12, { r: 200, g: 10, b: 10 }, "png");
    const res = await directUpload(
      t,
      { file_name: "traced.png", webhook_url: `${receiver.origin}/hook` },
      { content: png, type: "image/png" },
      { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } },
    );
    uploaded(res);

    const hook = await waitFor(() => receiver.requests.find((r) => r.url === "/hook"));
    const [version, hookTraceId, hookParentId, flags] = String(hook.headers.traceparent).split("-");
    expect({ version, hookTraceId, flags }).toEqual({ version: "00", hookTraceId: traceId, flags: "01" });

    const trace = await spansOf(traceId, "webhook delivery");
    const request = only(trace, "POST /api/v1/uploads");
    expect(request.parentSpanId).toBe(callerSpanId);

    const children = trace.filter((span) => span.parentSpanId === request.spanId).map((span) => span.name);
    expect(children).toContain("storage put");
    expect(children.some((name) => name.startsWith("db "))).toBe(true);

    // The delivery ran later, in a job, as the request's child; the receiver saw that span's id.
    const delivery = only(trace, "webhook delivery");
    expect(delivery.parentSpanId).toBe(request.spanId);
    expect(hookParentId).toBe(delivery.spanId);
  });

  it("starts a trace for a request without traceparent; a render is a child span, the variant's write its sibling", async () => {
    const png = await solid(20, 20, { r: 10, g: 200, b: 10 }, "png");
    const file = uploaded(
      await directUpload(t, { file_name: "green.png" }, { content: png, type: "image/png" }),
    );
    const url = pathOf(file.url).replace(`/${t.workspace.workspaceNo}/`, `/${t.workspace.workspaceNo}/w_10/`);
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(200);

    await tracing?.flush();
    const render = await waitFor(() => spans.find((span) => span.name === "render"));
    const trace = await spansOf(render.traceId, "GET /assets/*");
    const request = only(trace, "GET /assets/*");
    expect(request.parentSpanId ?? "").toBe("");
    expect(render.parentSpanId).toBe(request.spanId);
    const children = trace.filter((span) => span.parentSpanId === request.spanId).map((span) => span.name);
    expect(children).toContain("storage open"); // the cache looked up (and missed) in one call
    expect(children.some((name) => name.startsWith("db "))).toBe(true);
    // The render span holds the decode and the encode; storing the variant follows it as the
    // request's own work, because the render slot is released before the write.
    expect(children).toContain("render");
    expect(children).toContain("storage put");
  });
});
