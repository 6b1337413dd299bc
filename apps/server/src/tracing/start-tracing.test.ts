import { describe, expect, it } from "vitest";
import { tracesUrlOf } from "./start-tracing.js";

describe("tracesUrlOf", () => {
  it("is off without an endpoint, or when the SDK is disabled", () => {
    expect(tracesUrlOf({})).toBeUndefined();
    expect(tracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "  " })).toBeUndefined();
    expect(
      tracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_SDK_DISABLED: "TRUE" }),
    ).toBeUndefined();
  });

  it("appends /v1/traces to the base endpoint, whatever slashes it ends with", () => {
    expect(tracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(
      "http://127.0.0.1:4318/v1/traces",
    );
    expect(tracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/otlp///" })).toBe(
      "http://127.0.0.1:4318/otlp/v1/traces",
    );
    // A long run of slashes is trimmed in one pass (a regex here backtracked quadratically).
    expect(tracesUrlOf({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:4318${"/".repeat(100_000)}` })).toBe(
      "http://127.0.0.1:4318/v1/traces",
    );
  });

  it("takes the traces endpoint as it is when one is set", () => {
    expect(
      tracesUrlOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://127.0.0.1:9999/custom/",
      }),
    ).toBe("http://127.0.0.1:9999/custom/");
  });
});
