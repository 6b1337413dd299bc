import { afterEach, describe, expect, it, vi } from "vitest";
import { BASE_URL } from "../../../test/support/msw-server.js";
import { TroveError } from "../errors.js";
import { createClient } from "./create-client.js";
import { createUploadClient } from "./create-upload-client.js";

/** What the guard looks at: a window and a document, as in any page. */
function simulateBrowser() {
  vi.stubGlobal("window", {});
  vi.stubGlobal("document", {});
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("private keys in browsers", () => {
  it("refuses a private key in a browser", () => {
    simulateBrowser();
    for (const create of [createClient, createUploadClient]) {
      let error: unknown;
      try {
        create({ apiKey: "trove_sk_live_123", baseUrl: BASE_URL });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(TroveError);
      expect(error).toMatchObject({ code: "PRIVATE_KEY_IN_BROWSER" });
    }
  });

  it("allows it with allowPrivateKeyInBrowser: true", () => {
    simulateBrowser();
    expect(() =>
      createClient({ apiKey: "trove_sk_live_123", baseUrl: BASE_URL, allowPrivateKeyInBrowser: true }),
    ).not.toThrow();
  });

  it("allows a public key in a browser, and a private key on a server", () => {
    simulateBrowser();
    expect(() => createUploadClient({ apiKey: "trove_pk_live_123", baseUrl: BASE_URL })).not.toThrow();
    vi.unstubAllGlobals();
    expect(() => createClient({ apiKey: "trove_sk_live_123", baseUrl: BASE_URL })).not.toThrow();
  });

  it("a window without a document, in Node, is not a browser", () => {
    vi.stubGlobal("window", {});
    expect(() => createClient({ apiKey: "trove_sk_live_123", baseUrl: BASE_URL })).not.toThrow();
  });

  it("checks the other options", () => {
    expect(() => createClient({ apiKey: "", baseUrl: BASE_URL })).toThrow(/apiKey/);
    expect(() => createClient({ apiKey: "trove_sk_x", baseUrl: "api.trove.test" })).toThrow(/baseUrl/);
  });
});

/**
 * Runs `create` with these globals in place of the real ones, restored before anything else runs:
 * without `process`, vitest itself cannot run, so nothing may await in between.
 */
function inRuntime(globals: Record<string, unknown>, create: () => unknown): unknown {
  for (const [name, value] of Object.entries(globals)) vi.stubGlobal(name, value);
  try {
    create();
    return undefined;
  } catch (error) {
    return error;
  } finally {
    vi.unstubAllGlobals();
  }
}

const workerScope = { self: globalThis, WorkerGlobalScope: class {}, importScripts: () => {} };

describe("runtimes without a page", () => {
  // Every case hides Node's `process`; `document` and `window` are absent in all of them.
  const BROWSER_LIKE: Array<[string, Record<string, unknown>]> = [
    ["a Web Worker", { ...workerScope, DedicatedWorkerGlobalScope: class {} }],
    ["a Service Worker", { ...workerScope, ServiceWorkerGlobalScope: class {}, clients: {} }],
    ["an edge runtime without Node compatibility", { EdgeRuntime: "edge-runtime" }],
    [
      "Deno 1 (a window, no document, no process)",
      { window: globalThis, Deno: { version: { deno: "1.46.3" } } },
    ],
    ["a bundler's process polyfill", { process: { env: {}, versions: {}, browser: true } }],
    ["a clobbered process (`<form id=process>`)", { process: { versions: { node: { tagName: "INPUT" } } } }],
  ];

  it.each(BROWSER_LIKE)("%s is browser-like: a private key is refused", (_, globals) => {
    for (const create of [createClient, createUploadClient]) {
      const error = inRuntime({ process: undefined, ...globals }, () =>
        create({ apiKey: "trove_sk_live_123", baseUrl: BASE_URL }),
      );
      expect(error).toBeInstanceOf(TroveError);
      expect(error).toMatchObject({ code: "PRIVATE_KEY_IN_BROWSER" });
    }
  });

  it.each(BROWSER_LIKE)(
    "%s takes a public key, and a private one with allowPrivateKeyInBrowser",
    (_, globals) => {
      const scope = { process: undefined, ...globals };
      expect(
        inRuntime(scope, () => createUploadClient({ apiKey: "trove_pk_live_123", baseUrl: BASE_URL })),
      ).toBe(undefined);
      const allowed = { apiKey: "trove_sk_live_123", baseUrl: BASE_URL, allowPrivateKeyInBrowser: true };
      expect(inRuntime(scope, () => createClient(allowed))).toBe(undefined);
    },
  );

  it.each([
    ["Bun", { process: { versions: { node: "22.6.0", bun: "1.2.0" } } }],
    [
      "Deno 2",
      { process: { versions: { node: "22.11.0", deno: "2.1.0" } }, Deno: { version: { deno: "2.1.0" } } },
    ],
  ])("%s says it is a server (process.versions.node): a private key is allowed", (_, globals) => {
    expect(inRuntime(globals, () => createClient({ apiKey: "trove_sk_live_123", baseUrl: BASE_URL }))).toBe(
      undefined,
    );
  });
});
