// Every management command against the real server: the table a person reads, the --json a
// script reads, and the one-sentence errors (404, 409, 400, 403, 401).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PIXEL_PNG, writeTree } from "./support/fixtures.js";
import { type TroveHome, trove, troveHome, troveJson } from "./support/trove-cli.js";

interface FileRow {
  file_no: string;
  name: string;
  path: string;
  file_size: number;
  thumbanil: string | null;
  [key: string]: unknown;
}
interface FilePage {
  files: FileRow[];
  meta: { page: number; limit: number; total: number; hasNext: boolean; hasPrev: boolean };
}
interface FolderRow {
  folder_no: string;
  name: string;
  total_items: number;
  total_size: number;
}
interface SourceJson {
  id: string;
  name: string;
  type: string;
  configuration: Record<string, unknown>;
  updated_at: string | null;
}

let server: ServerProcess;
let home: TroveHome;
let work: string;
let env: Record<string, string>;
const run = (args: string[]) => trove(args, { env, cwd: work });
const json = <T>(args: string[]) => troveJson<T>(args, { env, cwd: work });

/** The lines of a table without the header. */
const rowsOf = (stdout: string) =>
  stdout
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "" && !line.startsWith("Page "));

beforeAll(async () => {
  server = await startServerProcess();
  home = await troveHome();
  work = await mkdtemp(join(tmpdir(), "trove-cli-manage-"));
  env = { ...home.env, TROVE_API_KEY: server.keys.private, TROVE_BASE_URL: server.baseUrl };
  await writeTree(work, {
    "pixel.png": PIXEL_PNG,
    "notes.txt": "some notes\n",
    "docs/readme.md": "# Readme\n",
  });
  const seeded = await run([
    "upload",
    "pixel.png",
    "notes.txt",
    "docs",
    "--folder",
    "media",
    "--tags",
    "hero",
  ]);
  expect(seeded.code, seeded.stderr).toBe(0);
});

afterAll(async () => {
  await server?.stop();
  await home?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("files", () => {
  it("ls prints a table with a header, one row per file and the page line", async () => {
    const result = await run(["ls"]);
    expect(result.code).toBe(0);
    const [header] = result.stdout.split("\n");
    expect(header).toMatch(/^FILE NO +NAME +SIZE +FORMAT +DIMENSIONS +CREATED +PATH$/);
    const rows = rowsOf(result.stdout);
    expect(rows).toHaveLength(3);
    expect(rows.find((row) => row.includes("pixel.png"))).toMatch(
      /^\d+ +pixel\.png +\d+ B +png +1x1 +\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ +media\/pixel\.png$/,
    );
    expect(rows.find((row) => row.includes("readme.md"))).toMatch(/media\/docs\/readme\.md$/);
    expect(result.stdout).toContain("\nPage 1 of 1 (3 files).");
  });

  it("ls --json prints the API's page: rows as sent (thumbanil), and meta", async () => {
    const page = await json<FilePage>(["ls"]);
    expect(page.meta).toMatchObject({ page: 1, total: 3, hasNext: false, hasPrev: false });
    expect(page.files.map((file) => file.path).sort()).toEqual([
      "media/docs/readme.md",
      "media/notes.txt",
      "media/pixel.png",
    ]);
    for (const file of page.files) {
      expect(Object.keys(file)).toContain("thumbanil");
      expect(Object.keys(file)).not.toContain("thumbnail");
    }
  });

  it("ls filters by name, path and folder, sorts, and pages", async () => {
    expect((await json<FilePage>(["ls", "--name", "PIX"])).files.map((f) => f.name)).toEqual(["pixel.png"]);
    expect((await json<FilePage>(["ls", "--path", "media/docs"])).files.map((f) => f.name)).toEqual([
      "readme.md",
    ]);
    const sorted = await json<FilePage>(["ls", "--sort", "name_asc"]);
    expect(sorted.files.map((f) => f.name)).toEqual(["notes.txt", "pixel.png", "readme.md"]);
    const folders = await json<{ folders: FolderRow[] }>(["folders", "ls"]);
    const media = folders.folders.find((folder) => folder.name === "media")!;
    const docs = await json<{ folders: FolderRow[] }>(["folders", "ls", "--parent", media.folder_no]);
    const inDocs = await json<FilePage>(["ls", "--folder-no", docs.folders[0]!.folder_no]);
    expect(inDocs.files.map((f) => f.name)).toEqual(["readme.md"]);

    const first = await run(["ls", "--limit", "1", "--sort", "name_asc"]);
    expect(rowsOf(first.stdout)).toHaveLength(1);
    expect(first.stdout).toContain("Page 1 of 3 (3 files). Next: --page 2, or --all.");
    const second = await json<FilePage>(["ls", "--limit", "1", "--page", "2", "--sort", "name_asc"]);
    expect(second.files.map((f) => f.name)).toEqual(["pixel.png"]);
    expect(second.meta).toMatchObject({ page: 2, hasNext: true, hasPrev: true });
  });

  it("ls --all follows every page", async () => {
    const all = await json<{ files: FileRow[] }>(["ls", "--all", "--limit", "1", "--sort", "name_asc"]);
    expect(all.files.map((f) => f.name)).toEqual(["notes.txt", "pixel.png", "readme.md"]);
    const table = await run(["ls", "--all", "--limit", "2"]);
    expect(rowsOf(table.stdout).filter((line) => !line.endsWith("files."))).toHaveLength(3);
    expect(table.stdout).toContain("\n3 files.");
  });

  it("info prints one file's details, or the API's object with --json", async () => {
    const { files } = await json<FilePage>(["ls", "--name", "pixel"]);
    const fileNo = files[0]!.file_no;
    const result = await run(["info", fileNo]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^File no: +${fileNo}$`, "m"));
    expect(result.stdout).toMatch(/^Name: +pixel\.png$/m);
    expect(result.stdout).toMatch(/^Path: +media\/pixel\.png$/m);
    expect(result.stdout).toMatch(/^Dimensions: +1x1$/m);
    expect(result.stdout).toMatch(/^Folder: +media \(\w+\)$/m);
    expect(result.stdout).toMatch(/^URL: +http:\/\/127\.0\.0\.1:\d+\/assets\/\w+\/media\/pixel\.png$/m);
    const details = await json<Record<string, unknown>>(["info", fileNo]);
    expect(details).toMatchObject({
      file_no: fileNo,
      name: "pixel.png",
      dimensions: { width: 1, height: 1 },
    });
  });

  it("info of an unknown file is a 404 sentence", async () => {
    const result = await run(["info", "999999"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("Error: file 999999 was not found (404 NOT_FOUND).\n");
  });

  it("mv renames and keeps the extension; --json prints the file record", async () => {
    const { files } = await json<FilePage>(["ls", "--name", "notes"]);
    const fileNo = files[0]!.file_no;
    const result = await run(["mv", fileNo, "journal"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Renamed file ${fileNo} to journal.txt.\n`);
    const record = await json<Record<string, unknown>>(["mv", fileNo, "diary"]);
    expect(record).toMatchObject({ file_no: fileNo, name: "diary.txt", extension: "txt" });
  });

  it("mv with an invalid name or an unknown file is one sentence each", async () => {
    const { files } = await json<FilePage>(["ls", "--name", "diary"]);
    const invalid = await run(["mv", files[0]!.file_no, "a/b"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr.trim()).toMatch(
      new RegExp(
        `^Error: could not rename file ${files[0]!.file_no}: .*path separators.* \\(400 VALIDATION_FAILED\\)\\.$`,
      ),
    );
    const missing = await run(["mv", "999999", "x"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(
      /^Error: file 999999 was not found \(404 (FILE_NOT_FOUND|NOT_FOUND)\)\.$/,
    );
  });

  it("rm --yes deletes; a failure among several is reported and the others still go", async () => {
    await writeTree(work, { "gone-1.txt": "1", "gone-2.txt": "2" });
    const uploaded = await json<{ uploaded: { file_no: string }[] }>(["upload", "gone-1.txt", "gone-2.txt"]);
    const [one, two] = uploaded.uploaded.map((file) => file.file_no);

    const result = await run(["rm", one!, "999999", "--yes"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`Deleted file ${one}.\n`);
    expect(result.stderr.trim()).toBe("Error: file 999999 was not found (404 NOT_FOUND).");

    const asJson = await run(["rm", two!, "--yes", "--json"]);
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toEqual([{ file_no: two, message: expect.any(String) }]);
    expect((await json<FilePage>(["ls", "--name", "gone"])).files).toEqual([]);
  });
});

describe("folders", () => {
  it("create, ls, rename and rm, as tables and as JSON", async () => {
    const created = await run(["folders", "create", "campaign"]);
    expect(created.code).toBe(0);
    const [, name, folderNo] = /^Created folder (\S+) \((\w+)\)\.$/.exec(created.stdout.trim())!;
    expect(name).toBe("campaign");

    const child = await json<{ name: string; folder_no: string }>([
      "folders",
      "create",
      "2026",
      "--parent",
      folderNo!,
    ]);
    expect(child).toEqual({ name: "2026", folder_no: expect.any(String) });

    const table = await run(["folders", "ls"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^FOLDER NO +NAME +ITEMS +SIZE +CREATED$/);
    expect(rowsOf(table.stdout).find((row) => row.includes("campaign"))).toMatch(
      new RegExp(`^${folderNo} +campaign +0 +0 B +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`),
    );
    expect(rowsOf(table.stdout).find((row) => row.includes(" media "))).toMatch(/ media +3 +\d+ B /);

    const children = await json<{ folders: FolderRow[] }>(["folders", "ls", "--parent", folderNo!]);
    expect(children.folders).toEqual([
      {
        folder_no: child.folder_no,
        name: "2026",
        created_at: expect.any(String),
        total_items: 0,
        total_size: 0,
      },
    ]);
    const named = await json<{ folders: FolderRow[] }>(["folders", "ls", "--name", "CAMP"]);
    expect(named.folders.map((folder) => folder.name)).toEqual(["campaign"]);

    const renamed = await run(["folders", "rename", folderNo!, "campaign-2026"]);
    expect(renamed.stdout).toBe(`Renamed folder ${folderNo} to campaign-2026 (path campaign-2026).\n`);
    const record = await json<Record<string, unknown>>(["folders", "rename", child.folder_no, "q1"]);
    expect(record).toMatchObject({ folder_no: child.folder_no, name: "q1", path: "campaign-2026/q1" });

    const removed = await run(["folders", "rm", child.folder_no, "--yes"]);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe(`Deleted folder ${child.folder_no}.\n`);
    const removedJson = await run(["folders", "rm", folderNo!, "--yes", "--json"]);
    expect(JSON.parse(removedJson.stdout)).toEqual([{ folder_no: folderNo, message: expect.any(String) }]);
  });

  it("deleting a folder that has files is a 409 sentence with what to do", async () => {
    const { folders } = await json<{ folders: FolderRow[] }>(["folders", "ls", "--name", "media"]);
    const media = folders[0]!.folder_no;
    const result = await run(["folders", "rm", media, "--yes"]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(
      new RegExp(
        `^Error: could not delete folder ${media}: .+ \\(409 CONFLICT\\)\\. Only empty folders can be deleted: see \`trove ls --folder-no ${media}\`\\.$`,
      ),
    );
    const asJson = await run(["folders", "rm", media, "--yes", "--json"]);
    expect(JSON.parse(asJson.stdout)).toEqual([
      { folder_no: media, error: expect.objectContaining({ status: 409, code: "CONFLICT" }) },
    ]);
  });

  it("renaming an unknown folder is a 404 sentence", async () => {
    const result = await run(["folders", "rename", "nosuchfolder", "x"]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("Error: folder nosuchfolder was not found (404 NOT_FOUND).");
  });
});

describe("sources", () => {
  it("create, get, ls, update (a masked secret sent back keeps it) and rm", async () => {
    const created = await run([
      "sources",
      "create",
      "--type",
      "s3",
      "--name",
      "media-origin",
      "--config",
      "region=eu-west-1",
      "--config",
      "bucket=media",
      "--config",
      "access_key=AKIAEXAMPLE",
      "--config",
      "secret_key=very-secret",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const [, id] = /^Created source media-origin \(([0-9a-f-]{36})\)\.$/m.exec(created.stdout)!;
    expect(created.stdout).toMatch(/^ {2}secret_key: +\*+$/m);
    expect(created.stdout).toMatch(/^ {2}region: +eu-west-1$/m);
    expect(created.stdout).not.toContain("very-secret");
    expect(created.stdout).not.toContain("AKIAEXAMPLE");

    const details = await run(["sources", "get", id!]);
    expect(details.stdout).toMatch(new RegExp(`^ID: +${id}$`, "m"));
    expect(details.stdout).toMatch(/^Type: +s3$/m);
    expect(details.stdout).toMatch(/^ {2}access_key: +\*+$/m);
    const source = await json<SourceJson>(["sources", "get", id!]);
    expect(source).toMatchObject({ id, name: "media-origin", type: "s3", updated_at: null });
    expect(source.configuration).toEqual({
      access_key: expect.stringMatching(/^\*+$/),
      secret_key: expect.stringMatching(/^\*+$/),
      region: "eu-west-1",
      bucket: "media",
    });

    const table = await run(["sources", "ls"]);
    expect(table.stdout.split("\n")[0]).toMatch(/^ID +NAME +TYPE +ACTIVE +CREATED +UPDATED$/);
    expect(rowsOf(table.stdout)).toEqual([
      expect.stringMatching(new RegExp(`^${id} +media-origin +s3 +yes +\\d{4}-`)),
    ]);
    const listed = await json<{ sources: SourceJson[]; meta: Record<string, unknown> }>([
      "sources",
      "ls",
      "--type",
      "s3",
    ]);
    expect(listed.sources.map((s) => s.id)).toEqual([id]);
    expect(listed.meta).toMatchObject({ page: 1, total: 1, hasMore: false });
    expect((await json<{ sources: SourceJson[] }>(["sources", "ls", "--type", "azure"])).sources).toEqual([]);

    // Send the configuration back as read (secrets masked) with one field changed.
    const updated = await json<SourceJson>([
      "sources",
      "update",
      id!,
      "--config-json",
      JSON.stringify({ ...source.configuration, region: "eu-central-1" }),
    ]);
    expect(updated.configuration).toEqual({ ...source.configuration, region: "eu-central-1" });
    expect(updated.updated_at).not.toBeNull();

    const url = await run([
      "sources",
      "url",
      "media-origin",
      "products/shoe one.jpg",
      "--transform",
      "w_800",
      "--workspace",
      "ws1",
    ]);
    expect(url.code, url.stderr).toBe(0);
    expect(url.stdout.trim()).toMatch(/\/ws1-media-origin\/w_800\/products\/shoe%20one\.jpg$/);

    const removed = await run(["sources", "rm", id!, "--yes"]);
    expect(removed.stdout).toBe(`Deleted source ${id}.\n`);
    const after = await run(["sources", "get", id!]);
    expect(after.code).toBe(1);
    expect(after.stderr.trim()).toBe(`Error: source ${id} was not found (404 NOT_FOUND).`);
  });

  it("booleans, files for values, --all, and rm --json", async () => {
    await writeFile(join(work, "base-url.txt"), "https://images.example.com\n");
    const source = await json<SourceJson>([
      "sources",
      "create",
      "--type",
      "image_source",
      "--name",
      "cdn",
      "--config",
      "base_url=@base-url.txt",
      "--config",
      "forward_header=true",
    ]);
    expect(source.configuration).toEqual({ base_url: "https://images.example.com", forward_header: true });
    const all = await json<{ sources: SourceJson[] }>(["sources", "ls", "--all", "--limit", "1"]);
    expect(all.sources.map((s) => s.name)).toContain("cdn");
    const removed = await run(["sources", "rm", source.id, "--yes", "--json"]);
    expect(JSON.parse(removed.stdout)).toEqual([{ id: source.id, message: "source deleted" }]);
  });

  it("a duplicate name is a 409 sentence and an invalid configuration a 400 sentence", async () => {
    const create = (name: string, ...config: string[]) =>
      run([
        "sources",
        "create",
        "--type",
        "azure",
        "--name",
        name,
        ...config.flatMap((c) => ["--config", c]),
      ]);
    const first = await create(
      "blobs",
      "connection_string=DefaultEndpointsProtocol=https",
      "container_name=c",
    );
    expect(first.code, first.stderr).toBe(0);
    const duplicate = await create("blobs", "connection_string=x", "container_name=c");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toBe(
      "Error: could not create source blobs: origin name already exists in this workspace (409 CONFLICT).\n",
    );
    const invalid = await create("incomplete", "container_name=c");
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toBe(
      "Error: could not create source incomplete: configuration is invalid for the specified type (400 VALIDATION_FAILED).\n",
    );
  });
});

describe("keys and configuration", () => {
  it("a public key on ls, folders ls and sources ls is a 403 sentence", async () => {
    for (const args of [["ls"], ["folders", "ls"], ["sources", "ls"]]) {
      const result = await trove(args, { env: { ...env, TROVE_API_KEY: server.keys.public }, cwd: work });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        "Error: the API key is not allowed to do this (403 FORBIDDEN). Use a private key (trove_sk_…): a public key may only upload.\n",
      );
    }
  });

  it("an unknown key is a 401 sentence", async () => {
    const result = await trove(["ls"], {
      env: { ...env, TROVE_API_KEY: "trove_sk_doesnotexist" },
      cwd: work,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'Error: the server did not accept the API key (401 UNAUTHORIZED). Check TROVE_API_KEY (or "apiKey" in the config file).\n',
    );
  });

  it("the default config file is read; the environment wins over it; --config names another", async () => {
    const fileEnv = { ...home.env };
    await writeTree(home.configDir, {
      "config.json": JSON.stringify({ apiKey: server.keys.private, baseUrl: server.baseUrl }),
    });
    try {
      const fromFile = await trove(["ls", "--json"], { env: fileEnv, cwd: work });
      expect(fromFile.code, fromFile.stderr).toBe(0);
      expect((JSON.parse(fromFile.stdout) as FilePage).meta.total).toBeGreaterThan(0);

      const envWins = await trove(["ls"], {
        env: { ...fileEnv, TROVE_API_KEY: server.keys.public },
        cwd: work,
      });
      expect(envWins.stderr).toContain("(403 FORBIDDEN)");

      const other = join(work, "public.json");
      await writeFile(other, JSON.stringify({ apiKey: server.keys.public, baseUrl: server.baseUrl }));
      const named = await trove(["--config", other, "ls"], { env: fileEnv, cwd: work });
      expect(named.stderr).toContain("(403 FORBIDDEN)");
      const viaEnv = await trove(["ls"], { env: { ...fileEnv, TROVE_CONFIG: other }, cwd: work });
      expect(viaEnv.stderr).toContain("(403 FORBIDDEN)");
    } finally {
      await rm(join(home.configDir, "config.json"));
    }
  });
});
