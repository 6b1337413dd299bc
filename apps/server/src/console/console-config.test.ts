import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConsoleDir } from "./console-config.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An installed @trove/server: package.json, dist/index.js, and optionally the bundled console. */
function installedPackage(withConsole: boolean): { moduleUrl: string; root: string } {
  const root = mkdtempSync(join(tmpdir(), "trove-server-package-"));
  made.push(root);
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "@trove/server" }));
  mkdirSync(join(root, "dist"));
  writeFileSync(join(root, "dist", "index.js"), "");
  if (withConsole) {
    mkdirSync(join(root, "console"));
    writeFileSync(join(root, "console", "index.html"), "<!doctype html>");
  }
  return { moduleUrl: pathToFileURL(join(root, "dist", "index.js")).href, root };
}

describe("defaultConsoleDir", () => {
  it("is the checkout's apps/console/dist when the server runs from the repository", () => {
    expect(defaultConsoleDir()).toMatch(/apps[/\\]console[/\\]dist$/);
  });

  it("is the console an installed package carries beside dist/", () => {
    const { moduleUrl, root } = installedPackage(true);
    expect(defaultConsoleDir(moduleUrl)).toBe(join(root, "console"));
  });

  it("is undefined for an installed package without one (/console then answers not built)", () => {
    expect(defaultConsoleDir(installedPackage(false).moduleUrl)).toBeUndefined();
  });
});
