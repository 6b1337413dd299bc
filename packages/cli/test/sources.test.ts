// `trove sources` against the real server: bare `sources` lists, `update` sends exactly what the
// server takes (a rename, --active/--inactive, configuration), and `url` finds the workspace from
// the API key.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { updateSourceBodySchema } from "@trove/schema";
import { type ServerProcess, startServerProcess } from "@trove/test-support/server-process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TroveHome, trove, troveHome, troveJson } from "./support/trove-cli.js";

interface SourceJson {
  id: string;
  name: string;
  is_active: boolean;
  workspace_no?: string;
  configuration: Record<string, unknown>;
}

let server: ServerProcess;
let home: TroveHome;
let work: string;
let env: Record<string, string>;
const run = (args: string[], extra: Record<string, string> = {}) =>
  trove(args, { env: { ...env, ...extra }, cwd: work });
const json = <T>(args: string[], extra: Record<string, string> = {}) =>
  troveJson<T>(args, { env: { ...env, ...extra }, cwd: work });

function createWebSource(name: string, extra: Record<string, string> = {}): Promise<SourceJson> {
  return json<SourceJson>(
    [
      "sources",
      "create",
      "--type",
      "image_source",
      "--name",
      name,
      "--config",
      "base_url=https://img.example.com",
    ],
    extra,
  );
}

beforeAll(async () => {
  server = await startServerProcess();
  home = await troveHome();
  work = await mkdtemp(join(tmpdir(), "trove-cli-sources-"));
  env = { ...home.env, TROVE_API_KEY: server.keys.private, TROVE_BASE_URL: server.baseUrl };
});

afterAll(async () => {
  await server?.stop();
  await home?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("trove sources", () => {
  it("alone lists, like `sources ls`", async () => {
    const source = await createWebSource("listed-by-default");
    const bare = await run(["sources"]);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout.split("\n")[0]).toMatch(/^ID +NAME +TYPE +ACTIVE +CREATED +UPDATED$/);
    expect(bare.stdout).toContain(source.id);
    expect(bare.stdout).toBe((await run(["sources", "ls"])).stdout);
  });
});

describe("trove sources update", () => {
  it("renames: the new name is the source's, the old one is refused to another source", async () => {
    const source = await createWebSource("before-rename");
    const renamed = await json<SourceJson>(["sources", "update", source.id, "--name", "after-rename"]);
    expect(renamed).toMatchObject({ id: source.id, name: "after-rename" });
    const table = await run(["sources", "update", source.id, "--name", "after-rename-2"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`Updated source after-rename-2 (${source.id}).`);
    const taken = await run([
      "sources",
      "create",
      "--type",
      "s3",
      "--name",
      "before-rename",
      "--config",
      "region=r",
      "--config",
      "bucket=b",
    ]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("409");
  });

  it("--inactive and --active switch is_active; together they are a usage error", async () => {
    const source = await createWebSource("switched");
    expect((await json<SourceJson>(["sources", "update", source.id, "--inactive"])).is_active).toBe(false);
    const shown = await run(["sources", "get", source.id]);
    expect(shown.stdout).toMatch(/^Active: +no$/m);
    expect((await json<SourceJson>(["sources", "update", source.id, "--active"])).is_active).toBe(true);
    const both = await run(["sources", "update", source.id, "--active", "--inactive"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/cannot be used with/);
  });

  it("sends configuration with the other fields in one request", async () => {
    const source = await createWebSource("configured");
    const updated = await json<SourceJson>([
      "sources",
      "update",
      source.id,
      "--name",
      "configured-2",
      "--inactive",
      "--config",
      "forward_header=true",
    ]);
    expect(updated).toMatchObject({ name: "configured-2", is_active: false });
    expect(updated.configuration).toEqual({ base_url: "https://img.example.com", forward_header: true });
  });

  it("offers exactly the fields the server takes", async () => {
    // Each field of the PATCH body, and the options that set it.
    const optionsOf: Record<string, string[]> = {
      name: ["--name"],
      is_active: ["--active", "--inactive"],
      configuration: ["--config", "--config-json"],
    };
    expect(Object.keys(optionsOf).sort()).toEqual(Object.keys(updateSourceBodySchema.shape).sort());
    const help = await run(["sources", "update", "--help"]);
    const offered = [...help.stdout.matchAll(/^ {2}(?:-[a-z], )?(--[a-z-]+)/gm)].map((match) => match[1]);
    const output = ["--json", "--help"];
    expect(offered.sort()).toEqual([...Object.values(optionsOf).flat(), ...output].sort());
  });
});

describe("trove sources url", () => {
  it("takes the workspace from the key: each key's own workspace_no", async () => {
    await createWebSource("shared-name");
    await createWebSource("shared-name", { TROVE_API_KEY: server.keys.private2 });
    await writeFile(join(work, "one.txt"), "one\n");
    // The workspace as the files API names it, to compare with.
    expect((await run(["upload", "one.txt"])).code).toBe(0);
    const workspaceNo = (await json<{ files: { workspace_no: string }[] }>(["ls"])).files[0]?.workspace_no;
    expect(workspaceNo).toMatch(/^[A-Za-z0-9]+$/);

    const url = await run(["sources", "url", "shared-name", "products/shoe one.jpg", "--transform", "w_800"]);
    expect(url.code, url.stderr).toBe(0);
    expect(url.stdout.trim()).toBe(
      `${server.baseUrl}/assets/${workspaceNo}-shared-name/w_800/products/shoe%20one.jpg`,
    );

    const other = await run(["sources", "url", "shared-name", "a.jpg"], {
      TROVE_API_KEY: server.keys.private2,
    });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout.trim()).toMatch(/\/assets\/[A-Za-z0-9]+-shared-name\/a\.jpg$/);
    expect(other.stdout).not.toContain(`/${workspaceNo}-`);
  });

  it("--workspace skips the lookup; an unknown name is an error, an inactive one a warning", async () => {
    const given = await run(["sources", "url", "anything", "a.jpg", "--workspace", "ws1"]);
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout.trim()).toBe(`${server.baseUrl}/assets/ws1-anything/a.jpg`);

    const unknown = await run(["sources", "url", "no-such-source", "a.jpg"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(
      "Error: no source is named no-such-source in this key's workspace (see `trove sources ls`).",
    );
    // A substring of a real name is not that name.
    const partial = await run(["sources", "url", "shared", "a.jpg"]);
    expect(partial.code).toBe(1);

    const source = await createWebSource("dormant");
    await run(["sources", "update", source.id, "--inactive"]);
    const dormant = await run(["sources", "url", "dormant", "a.jpg"]);
    expect(dormant.code, dormant.stderr).toBe(0);
    expect(dormant.stdout.trim()).toMatch(/-dormant\/a\.jpg$/);
    expect(dormant.stderr).toContain("Warning: source dormant is inactive");
  });
});
