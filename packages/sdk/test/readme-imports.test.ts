import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
// TypeScript 5.9 under another name: TypeScript 7, this package's `tsc`, has no compiler API.
import ts from "typescript-api";
import { afterAll, describe, expect, it } from "vitest";

/**
 * Every import line of a ```ts or ```tsx block in the READMEs (each package's and the
 * repository's) compiles in a consumer's project under both `moduleResolution` a consumer may
 * have: `nodenext` (Node, which matches the `node` export condition) and `bundler` (which does
 * not). The packages are linked into the project's node_modules, so each import resolves through
 * the package's `exports` as an installed one would; the `dev-source` condition points those at
 * src/, so no build is needed and the check is of the source as it is now (the built .d.ts files
 * are checked by `attw` in `publint`). A README's other dependencies (react, its types) are linked
 * from that package's node_modules. Only the imports are compiled: whole snippets of the SDK's
 * README are compiled by src/readme-snippets.test.ts.
 */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PACKAGES = join(ROOT, "packages");

interface ImportLine {
  readme: string;
  line: number;
  text: string;
  specifier: string;
  tsx: boolean;
}

function readmes(): string[] {
  const found = readdirSync(PACKAGES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(PACKAGES, entry.name, "README.md"))
    .filter((path) => existsSync(path));
  return [join(ROOT, "README.md"), ...found];
}

function importLines(readme: string): ImportLine[] {
  const text = readFileSync(readme, "utf8");
  const lines: ImportLine[] = [];
  for (const block of text.matchAll(/^```(tsx?)\n([\s\S]*?)^```$/gm)) {
    const tsx = block[1] === "tsx";
    const code = block[2] ?? "";
    const firstLine = text.slice(0, block.index).split("\n").length + 1;
    const source = ts.createSourceFile("block.tsx", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    for (const statement of source.statements) {
      const specifier =
        ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
          ? statement.moduleSpecifier
          : undefined;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const at = source.getLineAndCharacterOfPosition(statement.getStart(source)).line;
      lines.push({
        readme,
        line: firstLine + at,
        text: statement.getText(source),
        specifier: specifier.text,
        tsx,
      });
    }
  }
  return lines;
}

/** `react` → `react`, `@types/react`; `@trove/sdk/upload` → `@trove/sdk`; `node:fs` → none. */
function packageName(specifier: string): string | undefined {
  if (specifier.startsWith("node:") || specifier.startsWith(".")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

const project = mkdtempSync(join(tmpdir(), "trove-readme-imports-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** node_modules/<name> → target, as an install would put it; a dependency without types has no @types. */
function link(name: string, target: string): void {
  const path = join(project, "node_modules", name);
  if (!existsSync(target) || existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path, "junction");
}

/** The consumer's project: one file per import line, node_modules links, two tsconfigs. */
function writeProject(all: ImportLine[]): Map<string, ImportLine> {
  writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
  for (const entry of readdirSync(PACKAGES)) {
    const manifest = JSON.parse(readFileSync(join(PACKAGES, entry, "package.json"), "utf8")) as {
      name: string;
    };
    link(manifest.name, join(PACKAGES, entry));
  }
  link("@types/node", join(ROOT, "node_modules", "@types", "node"));
  for (const { readme, specifier } of all) {
    const name = packageName(specifier);
    if (!name || name.startsWith("@trove/")) continue;
    const modules = join(dirname(readme), "node_modules");
    link(name, join(modules, name));
    link(`@types/${name}`, join(modules, "@types", name));
  }
  const files = new Map<string, ImportLine>();
  all.forEach((line, index) => {
    const file = join(project, `import-${index}.${line.tsx ? "tsx" : "ts"}`);
    writeFileSync(file, `${line.text}\n`);
    files.set(file, line);
  });
  const common = {
    target: "es2022",
    lib: ["es2022", "dom", "dom.iterable"],
    jsx: "react-jsx",
    types: ["node"],
    strict: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
    customConditions: ["dev-source"],
  };
  for (const [name, resolution] of Object.entries(RESOLUTIONS)) {
    const tsconfig = { compilerOptions: { ...common, ...resolution }, files: [...files.keys()] };
    writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(tsconfig, null, 2));
  }
  return files;
}

const RESOLUTIONS = {
  nodenext: { module: "nodenext", moduleResolution: "nodenext" },
  bundler: { module: "esnext", moduleResolution: "bundler" },
};

/**
 * A compiler host whose parsed files the two programs share, as the language service shares them
 * between projects: a file parsed for the same target and module format is the same tree (the
 * settings that also shape a parse, jsx and module detection, are the same in both tsconfigs).
 * The second program then costs a fraction of the first.
 */
const parsedFiles = new Map<string, ts.SourceFile | undefined>();
function sharedHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, settings, ...rest) => {
    const { languageVersion, impliedNodeFormat } =
      typeof settings === "object" ? settings : { languageVersion: settings, impliedNodeFormat: undefined };
    const key = `${fileName}|${languageVersion}|${impliedNodeFormat}`;
    if (!parsedFiles.has(key)) parsedFiles.set(key, parse(fileName, settings, ...rest));
    return parsedFiles.get(key);
  };
  return host;
}

function diagnostics(config: string, files: Map<string, ImportLine>): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(project, config), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error(`${config} could not be read`);
  const program = ts.createProgram(parsed.fileNames, parsed.options, sharedHost(parsed.options));
  const message = (diagnostic: ts.Diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
  const errors = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
  ].map((diagnostic) => `${config}: ${message(diagnostic)}`);
  for (const [file, line] of files) {
    const source = program.getSourceFile(file);
    for (const diagnostic of [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]) {
      errors.push(
        `${config}: ${relative(ROOT, line.readme)}:${line.line}: ${line.text}\n  ${message(diagnostic)}`,
      );
    }
  }
  return errors;
}

describe("README imports", () => {
  const all = readmes().flatMap(importLines);
  const files = writeProject(all);

  it("are found in the READMEs", () => {
    const specifiers = new Set(all.map((line) => line.specifier));
    for (const expected of ["@trove/sdk", "@trove/sdk/upload", "@trove/react", "react"]) {
      expect(specifiers).toContain(expected);
    }
  });

  for (const name of Object.keys(RESOLUTIONS)) {
    it(`compile with moduleResolution ${name}`, () => {
      expect(diagnostics(`tsconfig.${name}.json`, files)).toEqual([]);
    }, 60_000);
  }
});
