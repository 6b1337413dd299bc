import { createClient, createUploadClient } from "@trove/sdk/node";
import { createTokenRoute, type TokenRouteOptions } from "@trove/sdk/token-route";
import { useServerProcess } from "@trove/test-support/server-per-file";
import { describe, expect, it, vi } from "vitest";
import { gradientPng } from "./support/png.js";
import { tokenAnswer, uploadWithToken } from "./support/token-route.js";

// The minting is real: a trove-server child process on loopback, the route called as a Next.js
// route handler is, with a Web Request.
describe("createTokenRoute (Web Request → Response)", () => {
  const server = useServerProcess();

  const imagesOnly = { folder: "route/images", allowed_types: ["image/*"], max_file_size: 10 * 1024 * 1024 };

  function route(options: Partial<TokenRouteOptions> = {}) {
    return createTokenRoute({
      privateKey: server.keys.private,
      baseUrl: server.baseUrl,
      policy: () => imagesOnly,
      onError: () => {},
      ...options,
    } as TokenRouteOptions);
  }

  const post = (body?: unknown, headers: Record<string, string> = {}) =>
    new Request("http://app.test/api/upload-token", {
      method: "POST",
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** Nothing of the server's keys in an answer, whole or in part. */
  async function expectNoKey(response: Response) {
    const text = await response.clone().text();
    for (const key of Object.values(server.keys)) expect(text).not.toContain(key.slice(9, 25));
    expect(text).not.toMatch(/trove_sk_/);
  }

  it("answers a POST with a token bound to the policy, as JSON that is never cached", async () => {
    const response = await route()(post());
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await tokenAnswer(response);
    expect(body).toMatchObject({
      max_files: 1,
      policy: { folder: "route/images", allowed_types: ["image/*"] },
    });
    expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.now());

    const file = await uploadWithToken(server.baseUrl, body.token);
    expect(file.path).toMatch(/^route\/images\/[^/]+\.png$/);

    // Bound to the policy: a second token of the same route refuses what the policy does not allow.
    const second = await tokenAnswer(await route()(post()));
    const text = await createUploadClient({ baseUrl: server.baseUrl, token: second.token })
      .upload(new TextEncoder().encode("not an image"), { fileName: "note.txt", contentType: "text/plain" })
      .catch((error: unknown) => error);
    expect(text).toMatchObject({ code: "TYPE_NOT_ALLOWED" });
  });

  it("gives the policy the request, so it can read the page's JSON body", async () => {
    const handler = route({
      policy: async (request) => {
        const { album } = (await request.json()) as { album: string };
        return { ...imagesOnly, folder: `albums/${album}`, max_files: 2 };
      },
    });
    const body = await tokenAnswer(await handler(post({ album: "summer" })));
    expect(body).toMatchObject({ max_files: 2, policy: { folder: "albums/summer" } });
  });

  it("feeds a page's token getter: createUploadClient({ token: () => fetch(route) … })", async () => {
    const handler = route();
    const page = createUploadClient({
      baseUrl: server.baseUrl,
      token: async () => (await tokenAnswer(await handler(post()))).token,
    });
    const first = await page.upload(gradientPng(8, 8), { fileName: "a.png" });
    const second = await page.upload(gradientPng(8, 8), { fileName: "b.png" });
    expect(second.file_no).not.toBe(first.file_no);
  });

  it("answers 502 with Trove's code and message when Trove refuses (a policy it cannot read), never the key", async () => {
    const response = await route({ policy: () => ({ max_file_size: -1 }) })(post());
    expect(response.status).toBe(502);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.clone().json()) as Record<string, unknown>;
    expect(body).toMatchObject({ error: "Bad Gateway", success: false, errorCode: "VALIDATION_FAILED" });
    expect(body.message).toMatch(/max_file_size/);
    await expectNoKey(response);
  });

  it("answers 502 UNAUTHORIZED when Trove does not know the key, naming no part of it", async () => {
    const wrongKey = `trove_sk_${"x".repeat(32)}`;
    const response = await route({ privateKey: wrongKey })(post());
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ errorCode: "UNAUTHORIZED" });
    expect(text).not.toContain("xxxxxxxx");
  });

  it("answers 502 without the backend's network details when Trove cannot be reached", async () => {
    const onError = vi.fn();
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const response = await route({ baseUrl: "http://127.0.0.1:1", onError })(post());
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).not.toContain("127.0.0.1");
    expect(JSON.parse(text)).toEqual({
      error: "Bad Gateway",
      success: false,
      errorCode: "INTERNAL_ERROR",
      message: "Could not reach Trove to mint an upload token",
    });
    expect(onError.mock.calls[0]?.[0]).toMatchObject({ code: "CONNECTION_ERROR" });
  });

  it("takes a client made with the private key instead of the key", async () => {
    const client = createClient({ apiKey: server.keys.private, baseUrl: server.baseUrl });
    const handler = createTokenRoute({ client, policy: () => ({ folder: "from-client" }) });
    const body = await tokenAnswer(await handler(post()));
    expect(body.policy.folder).toBe("from-client");
  });
});
