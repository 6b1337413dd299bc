import { check, type Diagnostics } from "recheck";
import type { RegexLiteral } from "./find-regexes.js";

// recheck quietly falls back to a pure-JavaScript checker when its native binary is missing,
// which turns a broken install into a run that is minutes slower or times out. Asking for the
// native backend only makes `check` throw ("there is no available implementation") instead.
process.env.RECHECK_BACKEND = "native";

/** What recheck said about one regex found in the source. */
export interface RegexVerdict {
  regex: RegexLiteral;
  diagnostics: Diagnostics;
}

/**
 * Runs recheck over every regex. The checker's fuzzing uses a fixed seed (recheck's default), so a
 * verdict is the same on every run; `timeoutMs` is how long one regex may take before it is
 * reported `unknown`.
 */
export async function checkRegexes(regexes: RegexLiteral[], timeoutMs = 10_000): Promise<RegexVerdict[]> {
  return Promise.all(
    regexes.map(async (regex) => ({
      regex,
      diagnostics: await check(regex.source, regex.flags, { timeout: timeoutMs }),
    })),
  );
}

/** One line a person can act on: where, which pattern, why, and an input that shows it. */
export function describeVerdict({ regex, diagnostics }: RegexVerdict): string {
  const where = `${regex.file}:${regex.line} /${regex.source}/${regex.flags}`;
  switch (diagnostics.status) {
    case "vulnerable":
      return `${where}: ${diagnostics.complexity.summary}, attack ${diagnostics.attack.pattern}`;
    case "unknown":
      return `${where}: recheck gave up (${diagnostics.error.kind})`;
    case "safe":
      return `${where}: ${diagnostics.complexity.summary}`;
  }
}
