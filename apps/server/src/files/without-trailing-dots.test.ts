import { describe, expect, it } from "vitest";
import { withoutTrailingDots } from "./without-trailing-dots.js";

describe("withoutTrailingDots", () => {
  it.each([
    ["dog", "dog"],
    ["dog.", "dog"],
    ["dog. . \t", "dog"],
    ["dog\u00a0.\u3000", "dog"],
    ["d.o.g", "d.o.g"],
    [" dog", " dog"],
    ["...", ""],
    ["", ""],
    ["a..b..", "a..b"],
  ])("%j -> %j", (name, expected) => {
    expect(withoutTrailingDots(name)).toBe(expected);
  });

  it("handles long inner runs (quadratic for a plain [.\\s]+$) and keeps them", () => {
    const run = ". \t".repeat(100_000);
    expect(withoutTrailingDots(`a${run}b`)).toBe(`a${run}b`);
    expect(withoutTrailingDots(`a${run}b${run}`)).toBe(`a${run}b`);
  });
});
