// `--help` everywhere, usage errors (exit 2) and configuration errors: no server needed.
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TroveHome, trove, troveHome } from "./support/trove-cli.js";

let home: TroveHome;

beforeAll(async () => {
  home = await troveHome();
});

afterAll(async () => {
  await home?.cleanup();
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("--help", () => {
  it("lists every command, the configuration precedence and the exit codes", async () => {
    const result = await trove(["--help"], { env: home.env });
    expect(result.code).toBe(0);
    for (const command of ["upload", "ls", "info", "url", "mv", "rm", "folders", "sources"]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    }
    expect(result.stdout).toContain("1. environment   TROVE_API_KEY, TROVE_BASE_URL, TROVE_ASSETS_URL");
    expect(result.stdout).toContain("~/.config/trove/config.json");
    expect(result.stdout).toContain("Exit codes: 0 done, 1 failed");
    expect(result.stderr).toBe("");
  });

  it.each([
    [
      ["upload", "--help"],
      ["--folder <path>", "--concurrency <n>", "--transform <t>", "--tags <a,b>", "--json", "cp -r"],
    ],
    [
      ["ls", "--help"],
      [
        "--folder-no <folderNo>",
        "--name <text>",
        "--path <path>",
        "--tags <a,b>",
        "--sort <sort>",
        "--limit <n>",
        "--all",
        "--json",
      ],
    ],
    [
      ["info", "--help"],
      ["<fileNo>", "--json"],
    ],
    [
      ["mv", "--help"],
      ["<fileNo> <newName>", "--json"],
    ],
    [
      ["rm", "--help"],
      ["<fileNo...>", "--yes"],
    ],
    [
      ["folders", "--help"],
      [
        "ls [options]",
        "create [options] <name>",
        "rename [options] <folderNo> <newName>",
        "rm [options] <folderNo...>",
      ],
    ],
    [
      ["folders", "create", "--help"],
      ["--parent <folderNo>", "--json"],
    ],
    [
      ["sources", "--help"],
      [
        "ls [options]",
        "get [options] <id>",
        "create [options]",
        "update [options] <id>",
        "rm [options] <id...>",
      ],
    ],
    [
      ["sources", "create", "--help"],
      ["--type <type>", "--name <name>", "--config <key=value>", "--config-json <json>", "image_source"],
    ],
    [
      ["sources", "update", "--help"],
      ["--name <name>", "--active", "--inactive", "--config <key=value>", "masked"],
    ],
  ])("trove %s", async (args, expected) => {
    const result = await trove(args, { env: home.env });
    expect(result.code).toBe(0);
    for (const text of expected) expect(result.stdout).toContain(text);
  });

  it("prints the version", async () => {
    const result = await trove(["--version"], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("usage errors exit with 2", () => {
  it("no command prints the help on stderr", async () => {
    const result = await trove([], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: trove");
  });

  it("an unknown option is named", async () => {
    const result = await trove(["ls", "--bogus"], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: unknown option '--bogus'$/m);
  });

  it("a missing argument is named", async () => {
    const result = await trove(["mv", "12"], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Error: missing required argument 'newName'");
  });

  it("an out-of-range number is refused", async () => {
    const result = await trove(["ls", "--limit", "500"], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected an integer from 1 to 100");
  });

  it("a transformation that breaks the grammar is refused before anything is sent", async () => {
    const result = await trove(["upload", "x.jpg", "--transform", "w-300"], {
      env: { ...home.env, TROVE_API_KEY: "trove_sk_unused" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("w-300: directive must be key_value");
  });

  it("a missing API key is one clear sentence", async () => {
    const result = await trove(["ls"], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `Error: no API key. Set TROVE_API_KEY, or put "apiKey" in ${join(home.configDir, "config.json")}.`,
    );
  });

  it("deleting without --yes outside a terminal is refused", async () => {
    const result = await trove(["rm", "1001"], { env: { ...home.env, TROVE_API_KEY: "trove_sk_unused" } });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      "Error: refusing to delete file 1001 permanently without --yes (no terminal to ask on).",
    );
  });

  it("sources update with nothing to change is refused", async () => {
    const result = await trove(["sources", "update", "0190"], { env: { ...home.env, TROVE_API_KEY: "k" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "Error: nothing to update: give --name, --active, --inactive, --config or --config-json.",
    );
  });

  it("a --config file that does not exist is an error; the default one may be missing", async () => {
    const result = await trove(["--config", join(home.dir, "missing.json"), "ls"], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `Error: cannot read the config file ${join(home.dir, "missing.json")} (ENOENT).`,
    );
  });

  it("a config file that is not JSON is named", async () => {
    const file = join(home.dir, "broken.json");
    await writeFile(file, "{ apiKey: ");
    const result = await trove(["--config", file, "ls"], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Error: the config file .*broken\.json is not valid JSON \(/m);
  });

  it("a base URL that is not a URL is named", async () => {
    const result = await trove(["ls"], {
      env: { ...home.env, TROVE_API_KEY: "k", TROVE_BASE_URL: "localhost:3000" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'Error: the base URL "localhost:3000" must start with http:// or https://.',
    );
  });
});

describe("failures exit with 1", () => {
  it("an unreachable server is one sentence naming it, without a stack trace", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const result = await trove(["ls"], {
      env: { ...home.env, TROVE_API_KEY: "trove_sk_x", TROVE_BASE_URL: baseUrl },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `Error: could not reach the server at ${baseUrl} (CONNECTION_ERROR). Is it running? Check TROVE_BASE_URL.`,
    );
  });
});
