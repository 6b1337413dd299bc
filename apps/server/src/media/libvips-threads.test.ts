import { availableParallelism } from "node:os";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp } from "../../test/support/index.js";
import { loadConfig } from "../config.js";
import { resolveDeliveryLimits } from "../delivery/delivery-limits.js";
import { useLibvipsThreads } from "./libvips-threads.js";

const before = sharp.concurrency();
afterEach(() => {
  sharp.concurrency(before);
});

describe("libvips threads per operation", () => {
  it("share the cores out between the renders run at once, at least one each", () => {
    const cores = availableParallelism();
    expect(resolveDeliveryLimits({}).renderThreads).toBe(1);
    expect(resolveDeliveryLimits({ renderConcurrency: 1 }).renderThreads).toBe(cores);
    expect(resolveDeliveryLimits({ renderConcurrency: cores * 4 }).renderThreads).toBe(1);
    expect(resolveDeliveryLimits({ renderConcurrency: 1, renderThreads: 3 }).renderThreads).toBe(3);
  });

  it("are set in libvips, process-wide", () => {
    useLibvipsThreads(3);
    expect(sharp.concurrency()).toBe(3);
    useLibvipsThreads(1);
    expect(sharp.concurrency()).toBe(1);
  });

  it("are read from TROVE_RENDER_THREADS and set when the server's services are built", async () => {
    expect(loadConfig({ TROVE_RENDER_THREADS: "3" }).delivery.renderThreads).toBe(3);
    expect(() => loadConfig({ TROVE_RENDER_THREADS: "0" })).toThrow(/TROVE_RENDER_THREADS/);
    const t = await createTestApp({ config: { delivery: { renderThreads: 3 } } });
    try {
      expect(sharp.concurrency()).toBe(3);
    } finally {
      await t.close();
    }
  });
});
