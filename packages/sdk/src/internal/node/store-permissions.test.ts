import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TroveError } from "../errors.js";
import type { StoredUploadSession } from "../upload/session-store.js";
import { fileSessionStore } from "./file-session-store.js";
import { type StoreStats, unsafeStoreReason } from "./store-permissions.js";

// These tests run as root in CI too: root bypasses permissions, so they check the mode bits the
// store reads, never whether a write would be allowed. Another user's file is an injected stat.
let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "trove-store-modes-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// One expiry for every session a test builds: two built across a second boundary would differ.
const EXPIRES_AT = Math.floor(Date.now() / 1000) + 3600;
const session = (): StoredUploadSession => ({
  version: 1,
  session_id: "s",
  part_size: 1,
  parts: ["https://storage.example/part-0"],
  expires_at: EXPIRES_AT,
  completed: [],
  size: 1,
  file_name: "f",
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

async function refusal(run: () => unknown): Promise<TroveError> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(TroveError);
  expect(caught).toMatchObject({ code: "INVALID_ARGUMENT" });
  return caught as TroveError;
}

describe("fileSessionStore permissions", () => {
  it("makes its folders 0700 and writes the file 0600", async () => {
    const folder = join(dir, "made", "state");
    const path = join(folder, "uploads.json");
    await fileSessionStore(path).set("a", session());
    expect(await modeOf(join(dir, "made"))).toBe(0o700);
    expect(await modeOf(folder)).toBe(0o700);
    expect(await modeOf(path)).toBe(0o600);
  });

  it("rewrites a store an older SDK left 0644 as 0600, in a folder it did not make", async () => {
    const folder = join(dir, "older");
    await mkdir(folder, { mode: 0o755 });
    await chmod(folder, 0o755);
    const path = join(folder, "uploads.json");
    await writeFile(path, JSON.stringify({ a: session() }), { mode: 0o644 });
    await chmod(path, 0o644);
    const store = fileSessionStore(path);
    expect(await store.get("a")).toEqual(session());
    await store.set("b", session());
    expect(await modeOf(path)).toBe(0o600);
    expect(await modeOf(folder)).toBe(0o755);
  });

  it("refuses a store file other users can write, and leaves it as it is", async () => {
    const folder = join(dir, "writable-file");
    const path = join(folder, "uploads.json");
    const store = fileSessionStore(path);
    await store.set("a", session());
    await chmod(path, 0o666);
    const before = await readFile(path, "utf8");

    const created = await refusal(() => fileSessionStore(path));
    expect(created.message).toContain(
      `${path} can be written by other users (mode 666); run chmod 600 ${path}`,
    );
    for (const call of [() => store.get("a"), () => store.list?.(), () => store.set("b", session())]) {
      expect((await refusal(call)).message).toContain("can be written by other users");
    }
    await chmod(path, 0o620);
    expect((await refusal(() => store.delete("a"))).message).toContain("(mode 620)");
    expect(await readFile(path, "utf8")).toBe(before);

    await chmod(path, 0o600);
    expect(await fileSessionStore(path).get("a")).toEqual(session());
  });

  it("refuses a folder other users can write, before and after the store was made", async () => {
    const folder = join(dir, "shared");
    await mkdir(folder);
    await chmod(folder, 0o777);
    const path = join(folder, "uploads.json");
    const created = await refusal(() => fileSessionStore(path));
    expect(created.message).toContain(
      `${folder} can be written by other users (mode 777); run chmod 700 ${folder}`,
    );

    await chmod(folder, 0o700);
    const store = fileSessionStore(path);
    await store.set("a", session());
    await chmod(folder, 0o770);
    await refusal(() => store.get("a"));
    await refusal(() => store.set("b", session()));
  });

  it("keeps a store in a sticky shared folder (like /tmp) private to its owner", async () => {
    const folder = join(dir, "sticky");
    await mkdir(folder);
    await chmod(folder, 0o1777);
    const path = join(folder, "uploads.json");
    const store = fileSessionStore(path);
    await store.set("a", session());
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await store.get("a")).toBeDefined();
    await chmod(path, 0o666);
    await refusal(() => store.get("a"));
  });

  it("refuses a path that is not a regular file", async () => {
    const path = join(dir, "a-folder.json");
    await mkdir(path);
    expect((await refusal(() => fileSessionStore(path))).message).toContain(`${path} is not a regular file`);
  });
});

describe("unsafeStoreReason", () => {
  const stats = (uid: number, mode: number, kind: "file" | "folder" = "file"): StoreStats => ({
    uid,
    mode,
    isFile: () => kind === "file",
    isDirectory: () => kind === "folder",
  });

  it("refuses a store or folder that belongs to another user", () => {
    expect(unsafeStoreReason("file", "/s/u.json", stats(1001, 0o100600), 1000)).toBe(
      "/s/u.json belongs to another user (uid 1001), who can rewrite it; choose a path in a folder of your own",
    );
    expect(unsafeStoreReason("folder", "/s", stats(1001, 0o40700, "folder"), 1000)).toMatch(
      /^\/s belongs to another user/,
    );
  });

  it("accepts the user's own and root's, when only the owner may write", () => {
    expect(unsafeStoreReason("file", "/s/u.json", stats(1000, 0o100644), 1000)).toBeUndefined();
    expect(unsafeStoreReason("folder", "/home", stats(0, 0o40755, "folder"), 1000)).toBeUndefined();
  });

  it("accepts a sticky shared folder such as /tmp, but not another user's file planted in it", () => {
    expect(unsafeStoreReason("folder", "/tmp", stats(0, 0o41777, "folder"), 1000)).toBeUndefined();
    expect(unsafeStoreReason("file", "/tmp/u.json", stats(1001, 0o100600), 1000)).toMatch(
      /^\/tmp\/u.json belongs to another user/,
    );
    expect(unsafeStoreReason("file", "/tmp/u.json", stats(1000, 0o100666), 1000)).toMatch(
      /can be written by other users \(mode 666\)/,
    );
  });
});
