import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "./create-client.js";
import { createUploadClient } from "./create-upload-client.js";
import { TroveError } from "./errors.js";
import { BASE_URL } from "./test-support/msw-server.js";

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

  it("a window without a document (Deno 1, some workers) is not a browser", () => {
    vi.stubGlobal("window", {});
    expect(() => createClient({ apiKey: "trove_sk_live_123", baseUrl: BASE_URL })).not.toThrow();
  });

  it("checks the other options", () => {
    expect(() => createClient({ apiKey: "", baseUrl: BASE_URL })).toThrow(/apiKey/);
    expect(() => createClient({ apiKey: "trove_sk_x", baseUrl: "api.trove.test" })).toThrow(/baseUrl/);
  });
});
