// The body guard on its own: an origin that sends more than it announced (or announces nothing) is
// cut off at maxBytes, and the read's deadline reaches the body. Azure always announces a length,
// so these cases cannot be provoked through the SDK; a hand-fed source stands in for it.
import { PassThrough, type Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { guardOriginBody } from "./origin-body.js";

async function drain(body: Readable): Promise<{ bytes: number; data: Buffer; error: unknown }> {
  const chunks: Buffer[] = [];
  let error: unknown;
  try {
    for await (const chunk of body) chunks.push(chunk as Buffer);
  } catch (caught) {
    error = caught;
  }
  const data = Buffer.concat(chunks);
  return { bytes: data.length, data, error };
}

/** A hand-fed source and the guarded body over it. */
function guarded(maxBytes: number, signal = new AbortController().signal) {
  const source = new PassThrough();
  return { source, body: guardOriginBody(source, { maxBytes, signal, sourceName: "s" }) };
}

describe("guardOriginBody", () => {
  it("passes the bytes through unchanged up to maxBytes", async () => {
    const { source, body } = guarded(10);
    source.end(Buffer.from("0123456789"));
    const { data, error } = await drain(body);
    expect(error).toBeUndefined();
    expect(data.toString()).toBe("0123456789");
  });

  it("destroys the body with too_large when more than maxBytes arrive, and frees the source", async () => {
    const { source, body } = guarded(10);
    source.write(Buffer.alloc(6));
    source.write(Buffer.alloc(6));
    const { bytes, error } = await drain(body);
    expect(bytes).toBeLessThanOrEqual(10);
    expect(error).toMatchObject({ name: "OriginError", kind: "too_large", status: 413 });
    expect(source.destroyed).toBe(true);
  });

  it("turns the signal aborting mid-body into a timeout, and frees the source", async () => {
    const controller = new AbortController();
    const { source, body } = guarded(100, controller.signal);
    source.write(Buffer.alloc(5));
    const drained = drain(body);
    controller.abort();
    expect((await drained).error).toMatchObject({ kind: "timeout", status: 504 });
    expect(source.destroyed).toBe(true);
  });

  it("a signal aborted before the body is read fails at once", async () => {
    const { source, body } = guarded(100, AbortSignal.abort());
    expect((await drain(body)).error).toMatchObject({ kind: "timeout" });
    expect(source.destroyed).toBe(true);
  });

  it("a source that breaks is unavailable; its message stays in detail", async () => {
    const { source, body } = guarded(100);
    const drained = drain(body);
    source.destroy(new Error("socket hang up"));
    const { error } = await drained;
    expect(error).toMatchObject({ kind: "unavailable", detail: "socket hang up" });
  });

  it("the consumer destroying the body destroys the source", () => {
    const { source, body } = guarded(100);
    body.destroy();
    return new Promise<void>((resolve) =>
      body.on("close", () => {
        expect(source.destroyed).toBe(true);
        resolve();
      }),
    );
  });
});
