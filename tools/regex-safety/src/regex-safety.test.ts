/**
 * Every regular expression in the code that parses request input (server, shared schemas, SDK)
 * must match in linear time: recheck, with its native checker, proves each one safe or shows an
 * attack string. `vulnerable` and `unknown` (recheck gave up) both fail the run: a regex nobody
 * can show to be linear gets rewritten, not waved through. Computed patterns, which no checker
 * can read, must be listed in reviewed-dynamic.ts.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: sample source code, quoted as written
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkRegexes, describeVerdict } from "./check-regexes.js";
import { type DynamicRegex, findRegexes, type RegexLiteral } from "./find-regexes.js";
import { REVIEWED_DYNAMIC_REGEXES } from "./reviewed-dynamic.js";
import { sourceFiles } from "./source-files.js";

const REPOSITORY = fileURLToPath(new URL("../../../", import.meta.url));
const SCANNED = ["apps/server/src", "packages/schema/src", "packages/sdk/src"];

const failures = async (regexes: RegexLiteral[], timeoutMs?: number) =>
  (await checkRegexes(regexes, timeoutMs))
    .filter((verdict) => verdict.diagnostics.status !== "safe")
    .map(describeVerdict);

describe("findRegexes", () => {
  it("finds literals and RegExp constructions, and nothing that only looks like one", () => {
    const source = [
      "const a = /^(a+)+$/gi;", // line 1
      'const b = new RegExp("^x*$", "m");',
      "const c = RegExp(`^y+$`);",
      "const d = new RegExp(`^${prefix}+$`);",
      "const e = new RegExp(pattern, flags);",
      'const f = "/not+a+regex/" + 4 / 2 / 1;',
      "// const g = /commented+/;",
    ].join("\n");
    expect(findRegexes("sample.ts", source)).toEqual([
      { kind: "literal", file: "sample.ts", line: 1, source: "^(a+)+$", flags: "gi" },
      { kind: "literal", file: "sample.ts", line: 2, source: "^x*$", flags: "m" },
      { kind: "literal", file: "sample.ts", line: 3, source: "^y+$", flags: "" },
      { kind: "dynamic", file: "sample.ts", line: 4, expression: "`^${prefix}+$`" },
      { kind: "dynamic", file: "sample.ts", line: 5, expression: "pattern" },
    ]);
  });
});

describe("checkRegexes", () => {
  it("reports a super-linear regex with its place and an attack string", async () => {
    const nested: RegexLiteral = { kind: "literal", file: "a.ts", line: 3, source: "^(a+)+$", flags: "" };
    // The SVG prolog regex the upload sniffer used before it became a scanner.
    const oldSvgRoot: RegexLiteral = {
      kind: "literal",
      file: "b.ts",
      line: 7,
      source: String.raw`^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>\s*)*<svg[\s>/]`,
      flags: "i",
    };
    const safe: RegexLiteral = { kind: "literal", file: "c.ts", line: 1, source: "^[a-z]+$", flags: "" };
    const reported = await failures([nested, oldSvgRoot, safe]);
    expect(reported).toHaveLength(2);
    expect(reported[0]).toMatch(/^a\.ts:3 \/\^\(a\+\)\+\$\/: exponential, attack 'a'/);
    expect(reported[1]).toMatch(/^b\.ts:7 .*<svg.*\/i: .*polynomial.*, attack '<!--'/);
  });

  it("reports a regex recheck gives up on (here: no time to check it) rather than passing it", async () => {
    const regex: RegexLiteral = { kind: "literal", file: "d.ts", line: 2, source: "^[a-z]+$", flags: "" };
    expect(await failures([regex], 0)).toEqual(["d.ts:2 /^[a-z]+$/: recheck gave up (timeout)"]);
  });
});

describe("the regexes of the server, schema and SDK", () => {
  const found = SCANNED.flatMap((directory) => sourceFiles(REPOSITORY, directory)).flatMap((file) =>
    findRegexes(file, readFileSync(join(REPOSITORY, file), "utf8")),
  );
  const literals = found.filter((regex): regex is RegexLiteral => regex.kind === "literal");
  const dynamic = found.filter((regex): regex is DynamicRegex => regex.kind === "dynamic");

  it("are found (the scan reads the real source tree)", () => {
    expect(literals.length).toBeGreaterThan(50);
  });

  it("are all linear: none vulnerable, none that recheck gives up on", async () => {
    expect(await failures(literals)).toEqual([]);
  });

  it("with a computed pattern are all reviewed, and each reviewed example is linear", async () => {
    const reviewOf = (regex: DynamicRegex) =>
      REVIEWED_DYNAMIC_REGEXES.find((r) => r.file === regex.file && r.expression === regex.expression);
    const unreviewed = dynamic.filter((regex) => reviewOf(regex) === undefined);
    expect(unreviewed, "add these to reviewed-dynamic.ts after reading them").toEqual([]);
    const stale = REVIEWED_DYNAMIC_REGEXES.filter(
      (review) => !dynamic.some((regex) => reviewOf(regex) === review),
    ).map((review) => `${review.file}: ${review.expression}`);
    expect(stale, "reviewed-dynamic.ts entries with no such code any more").toEqual([]);
    const examples = dynamic.map(
      (regex): RegexLiteral => ({ ...regex, kind: "literal", ...reviewOf(regex)!.example }),
    );
    expect(await failures(examples)).toEqual([]);
  });
});
