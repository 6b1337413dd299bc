// A separate file, so a fresh process loads recheck without the agent the other file started.
import { expect, it } from "vitest";
import { checkRegexes } from "./check-regexes.js";

it("fails loudly, not slowly or green, when recheck's native checker cannot start", async () => {
  process.env.RECHECK_BIN = "/nonexistent/recheck";
  await expect(
    checkRegexes([{ kind: "literal", file: "a.ts", line: 1, source: "^(a+)+$", flags: "" }]),
  ).rejects.toThrow(/ENOENT/);
});
