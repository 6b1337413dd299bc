import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectFiles, normaliseFolder } from "./collect-files.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "trove-collect-"));
  await mkdir(join(root, "photos/2024/may"), { recursive: true });
  await mkdir(join(root, "empty"));
  await writeFile(join(root, "a.txt"), "a");
  await writeFile(join(root, "photos/cover.jpg"), "cover");
  await writeFile(join(root, "photos/2024/b.jpg"), "bb");
  await writeFile(join(root, "photos/2024/may/.hidden"), "h");
  await symlink(join(root, "a.txt"), join(root, "photos/link-to-a.txt"));
  await symlink(join(root, "photos"), join(root, "photos/2024/loop"));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("collectFiles", () => {
  it("puts files in --folder and a directory's files under its own name, like cp -r", async () => {
    const { items, unreadable } = await collectFiles(["a.txt", "photos", "empty"], "/site//", root);
    expect(unreadable).toEqual([]);
    expect(items.map(({ display, folder, size }) => ({ display, folder, size }))).toEqual([
      { display: "a.txt", folder: "site", size: 1 },
      { display: join("photos/2024/b.jpg"), folder: "site/photos/2024", size: 2 },
      { display: join("photos/2024/may/.hidden"), folder: "site/photos/2024/may", size: 1 },
      { display: join("photos/cover.jpg"), folder: "site/photos", size: 5 },
      { display: join("photos/link-to-a.txt"), folder: "site/photos", size: 1 },
    ]);
    expect(items[0]!.path).toBe(join(root, "a.txt"));
  });

  it("without --folder, files go to the root and directories to their own name", async () => {
    const { items } = await collectFiles(["a.txt", "photos/2024"], undefined, root);
    expect(items.map((item) => item.folder)).toEqual([undefined, "2024", "2024/may"]);
  });

  it("lists the same file for the same folder once", async () => {
    const { items } = await collectFiles(["a.txt", "./a.txt", join(root, "a.txt")], undefined, root);
    expect(items).toHaveLength(1);
  });

  it("reports arguments that do not exist instead of stopping", async () => {
    const { items, unreadable } = await collectFiles(["nope.jpg", "a.txt"], undefined, root);
    expect(items).toHaveLength(1);
    expect(unreadable).toEqual([{ display: "nope.jpg", reason: "does not exist", code: "ENOENT" }]);
  });
});

describe("normaliseFolder", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["/", undefined],
    ["a/b", "a/b"],
    ["/a//b/", "a/b"],
    ["./a/./b", "a/b"],
    ["a\\b", "a/b"],
  ])("%s → %s", (input, expected) => {
    expect(normaliseFolder(input)).toBe(expected);
  });
});
