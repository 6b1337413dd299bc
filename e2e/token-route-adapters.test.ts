import type { AddressInfo } from "node:net";
import { expressTokenRoute } from "@trove/sdk/token-route/express";
import { fastifyTokenRoute } from "@trove/sdk/token-route/fastify";
import { useServerProcess } from "@trove/test-support/server-per-file";
import express from "express";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { tokenAnswer, uploadWithToken } from "./support/token-route.js";

// The Express and Fastify adapters on loopback ports, minting from a real trove-server: each
// token they hand out is used for an upload, as a page would.
describe("token route adapters", () => {
  const server = useServerProcess();
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  /** The policy reads the page's JSON body, so the adapters must hand the body on intact. */
  function options() {
    return {
      privateKey: server.keys.private,
      baseUrl: server.baseUrl,
      policy: async (request: Request) => {
        const { album } = (await request.json()) as { album: string };
        return { folder: `albums/${album}`, allowed_types: ["image/*"] };
      },
      authorize: (request: Request) => request.headers.get("x-user") !== "banned",
      onError: () => {},
    };
  }

  const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });

  async function expectRouteBehaviour(url: string) {
    const answer = await postJson(url, { album: "trip" });
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const { token, policy } = await tokenAnswer(answer);
    expect(policy.folder).toBe("albums/trip");
    const file = await uploadWithToken(server.baseUrl, token, "trip.png");
    expect(file.path).toMatch(/^albums\/trip\/[^/]+\.png$/);

    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.json()).toMatchObject({ success: false, errorCode: "VALIDATION_FAILED" });

    const banned = await postJson(url, { album: "trip" }, { "x-user": "banned" });
    expect(banned.status).toBe(403);
    expect(await banned.json()).toMatchObject({ errorCode: "FORBIDDEN" });
  }

  it("Express: middleware without a body parser reads the request stream itself", async () => {
    const app = express();
    app.post("/api/upload-token", expressTokenRoute(options()));
    app.get("/api/upload-token", expressTokenRoute(options()));
    await expectRouteBehaviour(await listenExpress(app, closers));
  });

  it("Express: after express.json() the parsed body reaches the policy, inside a router too", async () => {
    const app = express();
    app.use(express.json());
    const api = express.Router();
    api.all("/upload-token", expressTokenRoute(options()));
    app.use("/api", api);
    await expectRouteBehaviour(await listenExpress(app, closers));
  });

  it("Fastify: the plugin's route, with the app's own JSON parsing untouched elsewhere", async () => {
    const app = Fastify();
    await app.register(fastifyTokenRoute, { path: "/api/upload-token", ...options() });
    app.post("/api/echo", async (request) => ({ got: request.body }));
    await app.listen({ port: 0, host: "127.0.0.1" });
    closers.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    await expectRouteBehaviour(`http://127.0.0.1:${port}/api/upload-token`);

    const echo = await postJson(`http://127.0.0.1:${port}/api/echo`, { a: 1 });
    expect(await echo.json()).toEqual({ got: { a: 1 } });
  });
});

async function listenExpress(
  app: ReturnType<typeof express>,
  closers: Array<() => Promise<void>>,
): Promise<string> {
  const listening = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    listening.once("listening", resolve);
    listening.once("error", reject);
  });
  closers.push(() => new Promise<void>((resolve) => listening.close(() => resolve())));
  const { port } = listening.address() as AddressInfo;
  return `http://127.0.0.1:${port}/api/upload-token`;
}
