// Requests of the tus protocol against a TestApp (app.inject), for tus.test.ts and tus-s3.test.ts.
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { TestApp } from "./support/index.js";

export const TUS = "/api/v1/tus";
export const PATCH_TYPE = "application/offset+octet-stream";

export function metadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString("base64")}`)
    .join(",");
}

export function testBytes(size: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = x >>> 16;
  }
  return bytes;
}

/** The protocol's requests against the app `get()` returns when called (set up in a beforeAll). */
export function tusClient(get: () => TestApp) {
  const t = new Proxy({} as TestApp, { get: (_target, name) => get()[name as keyof TestApp] });
  return { create, patch, head, storedFile, idOf };

  async function create(
    length: number,
    fields: Record<string, string>,
    key = t.keys.private,
    extra = {},
  ): Promise<LightMyRequestResponse> {
    return t.app.inject({
      method: "POST",
      url: TUS,
      headers: {
        "x-api-key": key,
        "tus-resumable": "1.0.0",
        "upload-length": String(length),
        "upload-metadata": metadata(fields),
        ...extra,
      },
    });
  }

  function idOf(location: string | undefined): string {
    expect(location).toMatch(/\/api\/v1\/tus\/[0-9a-f-]{36}$/);
    return (location as string).split("/").pop() as string;
  }

  function patch(
    id: string,
    offset: number,
    body: Buffer,
    key = t.keys.private,
    app: FastifyInstance = t.app,
  ) {
    return app.inject({
      method: "PATCH",
      url: `${TUS}/${id}`,
      headers: {
        "x-api-key": key,
        "tus-resumable": "1.0.0",
        "upload-offset": String(offset),
        "content-type": PATCH_TYPE,
      },
      payload: body,
    });
  }

  function head(
    id: string,
    key = t.keys.private,
    app: FastifyInstance = t.app,
  ): Promise<LightMyRequestResponse> {
    return app.inject({
      method: "HEAD",
      url: `${TUS}/${id}`,
      headers: { "x-api-key": key, "tus-resumable": "1.0.0" },
    });
  }

  async function storedFile(fileNo: string) {
    return t.app.db.file.findFirstOrThrow({ where: { fileNo: BigInt(fileNo) } });
  }
}
