import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { filesToCheck, missingPaths, missingPathsIn } from "./missing-paths.js";
import { readRepository, repositoryOf } from "./repository.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));

describe("paths named in docs and comments", () => {
  it("all exist", () => {
    const repo = readRepository(ROOT);
    expect(filesToCheck(repo).length).toBeGreaterThan(100);
    const findings = missingPaths(ROOT, repo).map(({ file, line, path }) => `${file}:${line} names ${path}`);
    expect(findings).toEqual([]);
  });
});

/** A small repository: a server package and the root's docs. */
const repo = repositoryOf([
  "package.json",
  "docs/GUIDE.md",
  "apps/server/package.json",
  "apps/server/README.md",
  "apps/server/src/app.ts",
  "apps/server/src/uploads/register-file.ts",
  "apps/server/src/uploads/stored-name.ts",
  "apps/server/src/routes/admin-keys.ts",
  "apps/server/src/routes/admin-workspaces.ts",
  "apps/server/prisma/schema.prisma",
  "packages/sdk/package.json",
  "packages/sdk/src/index.ts",
]);

function missing(file: string, text: string): string[] {
  return missingPathsIn(repo, file, text).map(({ line, path }) => `${line}:${path}`);
}

describe("the rule", () => {
  it("finds a missing path in a doc, in prose and in backticks, and says on which line", () => {
    const doc = "Intro.\nThe headers of `src/routes/delivery-headers.ts` and apps/server/src/gone.ts.\n";
    expect(missing("docs/GUIDE.md", doc)).toEqual([
      "2:src/routes/delivery-headers.ts",
      "2:apps/server/src/gone.ts",
    ]);
  });

  it("resolves against the root, the package, its src/ and the file's folders up to its package", () => {
    const comment = [
      "/**",
      " * See apps/server/src/app.ts, src/uploads/register-file.ts, uploads/stored-name.ts,",
      " * ./stored-name.ts, ../app.ts, packages/sdk/src/index.ts and prisma/schema.prisma.",
      " */",
      "export {};",
    ].join("\n");
    expect(missing("apps/server/src/uploads/register-file.ts", comment)).toEqual([]);
    expect(missing("apps/server/src/uploads/register-file.ts", "// ./nowhere.ts\nexport {};")).toEqual([
      "1:./nowhere.ts",
    ]);
    // A relative path of a usage sketch may be written from a folder above the comment's.
    expect(missing("apps/server/src/uploads/register-file.ts", "// ./app.ts\nexport {};")).toEqual([]);
    expect(missing("packages/sdk/src/index.ts", "// ../internal/nowhere.ts\nexport {};")).toEqual([
      "1:../internal/nowhere.ts",
    ]);
  });

  it("lets a root doc name any package's files from its src/", () => {
    expect(missing("docs/GUIDE.md", "`src/uploads/register-file.ts`, `src/index.ts`")).toEqual([]);
  });

  it("reads a .js name as its .ts file, globs and brace groups", () => {
    const comment =
      "// ./stored-name.js, src/routes/admin*.ts, src/routes/admin-{keys,workspaces}.ts\nexport {};";
    expect(missing("apps/server/src/uploads/register-file.ts", comment)).toEqual([]);
    expect(
      missing("apps/server/src/app.ts", "// src/routes/admin-{keys,files}.ts, src/jobs/*.ts\nexport {};"),
    ).toEqual(["1:src/routes/admin-{keys,files}.ts", "1:src/jobs/*.ts"]);
  });

  it("reads comments only: a string or a regular expression holding a path is code", () => {
    const code = [
      'const a = "src/missing.ts"; // but src/also-missing.ts',
      "const b = /src\\/missing\\.ts/;",
      // A template literal with a hole, built without one in this file's own source.
      ["const c = `src/missing.ts $", "{a}`;"].join(""),
      "/* src/third.ts */",
    ].join("\n");
    expect(missing("apps/server/src/app.ts", code)).toEqual(["1:src/also-missing.ts", "4:src/third.ts"]);
  });

  it("reads Prisma comments", () => {
    expect(missing("apps/server/prisma/schema.prisma", "model A {\n  /// src/gone.ts\n  id Int\n}")).toEqual([
      "2:src/gone.ts",
    ]);
  });

  it("is not fooled by URLs, MIME types, package names, absolute paths, build output or user files", () => {
    const doc = [
      "https://example.com/src/app.ts and node:fs/promises, image/png, @trove/sdk/upload",
      "/etc/trove/config.json, ~/src/app.ts, dist/index.js, src/generated/prisma/client.ts",
      "photos/2024/cat.jpg, `{assets_url}/{workspace_no}/{path}`, GET /api/v1/uploads/remote",
    ].join("\n");
    expect(missing("docs/GUIDE.md", doc)).toEqual([]);
  });

  it("skips a line with the ignore marker, and a fenced block marked in its info string", () => {
    const doc = [
      "Your `src/app.ts`... <!-- doc-paths-ignore -->",
      "```ts doc-paths-ignore",
      'import { app } from "./src/server.ts";',
      "```",
      "```ts",
      "// src/missing.ts",
      "```",
    ].join("\n");
    expect(missing("docs/GUIDE.md", doc)).toEqual(["6:src/missing.ts"]);
  });
});
