import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { pnpmCommand } from "./pnpm-command.mjs";

/**
 * What a user gets from the registry, checked without one: `pnpm pack` makes each published
 * package's tarball exactly as `pnpm publish` would (workspace:* rewritten), and the tarball must
 * carry its build, types, README and LICENSE, every file its manifest points at, no test files, and
 * no workspace: specifier a user's npm could not resolve. scripts/registry-check.mjs installs the
 * same tarballs from a local registry in a CI stage of its own.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const { packages } = JSON.parse(
  readFileSync(join(ROOT, "tools", "registry-check", "publishable.json"), "utf8"),
) as {
  packages: string[];
};
const DEPENDENCY_FIELDS = [
  "dependencies",
  "peerDependencies",
  "optionalDependencies",
  "devDependencies",
] as const;
const destination = mkdtempSync(join(tmpdir(), "trove-pack-"));
afterAll(() => rmSync(destination, { recursive: true, force: true }));

interface Packed {
  manifest: Record<string, unknown>;
  files: string[];
}

function pack(dir: string): Packed {
  const [command = "pnpm", ...prefix] = pnpmCommand(ROOT);
  const out = mkdtempSync(join(destination, "pkg-"));
  execFileSync(command, [...prefix, "pack", "--pack-destination", out], {
    cwd: join(ROOT, dir),
    stdio: "pipe",
  });
  const tarball = join(out, readdirSync(out).find((name) => name.endsWith(".tgz")) ?? "missing.tgz");
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ""));
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }),
  );
  return { manifest, files };
}

/** Every file path the manifest names: main/module/types, bin, and each exports target. */
function pointedAt(manifest: Record<string, unknown>): string[] {
  const paths: string[] = [];
  const walk = (value: unknown, condition: string): void => {
    // dev-source is the monorepo's own condition (sources without a build): no user sets it.
    if (condition === "dev-source") return;
    if (typeof value === "string") paths.push(value);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) walk(inner, key);
    }
  };
  for (const field of ["main", "module", "types", "bin", "exports"]) walk(manifest[field], field);
  return paths.filter((path) => path.startsWith("./")).map((path) => path.slice(2));
}

describe.each(packages)("the tarball of %s", (dir) => {
  const packed = pack(dir);

  it("carries its build, README, LICENSE and every file its manifest points at", () => {
    expect(packed.files).toEqual(expect.arrayContaining(["package.json", "README.md", "LICENSE"]));
    expect(packed.files.some((file) => file.startsWith("dist/"))).toBe(true);
    // A library ships its types; a command-only package (the CLI: `bin`, no exports) has none to ship.
    if (packed.manifest.exports) {
      expect(packed.files.some((file) => file.startsWith("dist/") && file.endsWith(".d.ts"))).toBe(true);
    }
    const missing = pointedAt(packed.manifest).filter((path) => !packed.files.includes(path));
    expect(missing).toEqual([]);
  });

  it("leaves out tests and test fixtures", () => {
    const tests = packed.files.filter((file) =>
      /(^|\/)(test|tests|__tests__|fixtures)\/|\.test\.[cm]?[jt]sx?$/.test(file),
    );
    expect(tests).toEqual([]);
  });

  it("names no workspace: specifier (npm could not resolve it)", () => {
    const unresolved = DEPENDENCY_FIELDS.flatMap((field) =>
      Object.entries((packed.manifest[field] ?? {}) as Record<string, string>)
        .filter(([, range]) => range.startsWith("workspace:"))
        .map(([name, range]) => `${field}.${name}: ${range}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("says which Node it supports and publishes in public", () => {
    expect(packed.manifest.engines).toEqual({ node: expect.any(String) });
    expect(packed.manifest.publishConfig).toMatchObject({ access: "public" });
  });
});

describe("the tarball of apps/server", () => {
  it("carries the built console, so an installed server serves /console", () => {
    const { files } = pack("apps/server");
    expect(files).toContain("console/index.html");
    expect(files.some((file) => /^console\/assets\/.+\.js$/.test(file))).toBe(true);
  });
});
