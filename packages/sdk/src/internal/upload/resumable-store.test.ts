// createUploadClient carries no resume code (issue #35: its default path stays small); a store
// brings it along: resumable(store) or localStorageSessionStore(). A plain store is refused
// before anything is sent, so that an upload never silently loses its resume.
import { HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { fakeMultipart, memorySessionStore, patternBytes } from "../../../test/support/fake-multipart.js";
import { testOptions, useMswServer } from "../../../test/support/msw-server.js";
import * as nodeEntry from "../../node.js";
import { createUploadClient } from "../client/create-upload-client.js";
import { ValidationError } from "../errors.js";
import { localStorageSessionStore } from "./local-storage-session-store.js";
import { resumable } from "./resumable-store.js";
import type { SessionStore } from "./session-store.js";

const server = useMswServer();
const PART = 1024;
const SIZE = 4 * PART + 10; // 5 parts
const file = new File([patternBytes(SIZE)], "big.bin", { lastModified: 1_700_000_000_000 });

const uploadClient = (sessionStore?: SessionStore) =>
  createUploadClient({ ...testOptions({ multipartThreshold: 1000 }), apiKey: "trove_pk_test", sessionStore });

/** Parts 0 and 1 go through, then storage refuses the rest: what a store sees after a crash. */
async function interruptedRun(sessionStore: SessionStore) {
  fakeMultipart(server, {
    size: SIZE,
    partSize: PART,
    onPart: (index) =>
      index >= 2 ? HttpResponse.json({ success: false, error: "nope" }, { status: 400 }) : undefined,
  });
  await expect(uploadClient(sessionStore).upload(file, { concurrency: 1 })).rejects.toBeInstanceOf(
    ValidationError,
  );
  server.resetHandlers();
}

describe("resuming with createUploadClient", () => {
  it("resumes from resumable(store): no new start, confirmed parts not sent again, listed before", async () => {
    const plain = memorySessionStore();
    const store = resumable(plain);
    await interruptedRun(store);
    expect(plain.entries.size).toBe(1);
    await expect(uploadClient(store).listStoredSessions()).resolves.toEqual([
      expect.objectContaining({ fileName: "big.bin", size: SIZE, confirmed: 2 * PART }),
    ]);

    const second = fakeMultipart(server, { size: SIZE, partSize: PART });
    await uploadClient(store).upload(file, { concurrency: 1 });
    expect(second.starts).toEqual([]);
    expect(second.puts).toEqual([2, 3, 4]);
    expect(plain.entries.size).toBe(0);
  });

  it("resumes from localStorageSessionStore() as it comes", async () => {
    const items = new Map<string, string>();
    const storage = {
      get length() {
        return items.size;
      },
      key: (i: number) => [...items.keys()][i] ?? null,
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
      clear: () => items.clear(),
    } satisfies Storage;
    const store = localStorageSessionStore(storage);
    await interruptedRun(store);
    expect(items.size).toBe(1);
    const second = fakeMultipart(server, { size: SIZE, partSize: PART });
    await uploadClient(store).upload(file, { concurrency: 1 });
    expect(second.starts).toEqual([]);
    expect(items.size).toBe(0);
  });

  it("refuses a plain store before sending anything, for the client or one upload", async () => {
    const storage = fakeMultipart(server, { size: SIZE, partSize: PART });
    const plain = memorySessionStore();
    for (const task of [
      uploadClient(plain).upload(file),
      uploadClient().upload(file, { sessionStore: plain }),
    ]) {
      await expect(task).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining("resumable(store)"),
      });
    }
    expect(storage.starts).toEqual([]);
    expect(plain.entries.size).toBe(0);
    // Without a store nothing is kept and the upload goes through.
    await uploadClient().upload(file);
    expect(storage.starts).toHaveLength(1);
  });

  it("Node's createUploadClient resumes from a plain store (fileSessionStore), as createClient does", async () => {
    const plain = memorySessionStore();
    const nodeClient = () =>
      nodeEntry.createUploadClient({
        ...testOptions({ multipartThreshold: 1000 }),
        apiKey: "trove_pk_test",
        sessionStore: plain,
      });
    fakeMultipart(server, {
      size: SIZE,
      partSize: PART,
      onPart: (index) =>
        index >= 2 ? HttpResponse.json({ success: false, error: "nope" }, { status: 400 }) : undefined,
    });
    await expect(nodeClient().upload(file, { concurrency: 1 })).rejects.toBeInstanceOf(ValidationError);
    server.resetHandlers();
    expect(plain.entries.size).toBe(1);
    const second = fakeMultipart(server, { size: SIZE, partSize: PART });
    await nodeClient().upload(file, { concurrency: 1 });
    expect(second.starts).toEqual([]);
    expect(second.puts).toEqual([2, 3, 4]);
  });

  it("calls a class-based store through, keeping its `this`", async () => {
    class MapStore implements SessionStore {
      readonly map = new Map<string, Parameters<SessionStore["set"]>[1]>();
      async get(key: string) {
        return this.map.get(key);
      }
      async set(key: string, session: Parameters<SessionStore["set"]>[1]) {
        this.map.set(key, session);
      }
      async delete(key: string) {
        this.map.delete(key);
      }
    }
    const inner = new MapStore();
    const store = resumable(inner);
    expect(store.list).toBeUndefined();
    await interruptedRun(store);
    expect(inner.map.size).toBe(1);
    // A store without list() lists nothing.
    await expect(uploadClient(store).listStoredSessions()).resolves.toEqual([]);
  });
});
