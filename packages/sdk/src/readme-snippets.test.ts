import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// TypeScript 5.9 under another name: TypeScript 7, this package's `tsc`, has no compiler API.
import ts from "typescript-api";
import { describe, expect, it } from "vitest";

/**
 * Every ```ts block of the SDK's README and the repository's README compiles as written, each as
 * its own module, against the SDK's types (`@trove/sdk…` resolves to this package's source through
 * the dev-source condition). A block that needs a name the reader supplies declares it itself
 * (`declare const user: { id: string }`), so a reader copying it sees what is assumed.
 */
const PACKAGE = dirname(dirname(fileURLToPath(import.meta.url)));
const READMES = [join(PACKAGE, "README.md"), join(PACKAGE, "..", "..", "README.md")];

interface Snippet {
  file: string;
  readme: string;
  line: number;
  code: string;
}

function snippets(): Snippet[] {
  const found: Snippet[] = [];
  for (const readme of READMES) {
    const text = readFileSync(readme, "utf8");
    for (const match of text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
      const line = text.slice(0, match.index).split("\n").length;
      const file = join(PACKAGE, `readme-snippet-${found.length}.ts`);
      found.push({ file, readme, line, code: match[1] ?? "" });
    }
  }
  return found;
}

function typeErrors(all: Snippet[]): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    // "node" as a Node reader's TypeScript (node16/nodenext) has it: the Node snippets import "@trove/sdk".
    customConditions: ["node", "dev-source"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const virtual = new Map(all.map((snippet) => [snippet.file, snippet.code]));
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.readFile = (name) => virtual.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const code = virtual.get(name);
    return code === undefined
      ? getSourceFile.call(host, name, language, ...rest)
      : ts.createSourceFile(name, code, language, true);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  const errors: string[] = [];
  for (const snippet of all) {
    const source = program.getSourceFile(snippet.file);
    for (const diagnostic of ts.getPreEmitDiagnostics(program, source)) {
      if (diagnostic.file?.fileName !== snippet.file) continue;
      const at = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
      const where = `${snippet.readme.slice(PACKAGE.length - "packages/sdk".length)}:${snippet.line + 1 + at}`;
      errors.push(`${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
    }
  }
  return errors;
}

describe("README snippets", () => {
  it("compile as written against the SDK's types", () => {
    const all = snippets();
    expect(all.length).toBeGreaterThan(5);
    expect(typeErrors(all)).toEqual([]);
  }, 60_000);
});
