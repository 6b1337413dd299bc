import { describe, expect, it } from "vitest";
import { buildTransform } from "./build-transform.js";
import { MAX_TRANSFORM_LENGTH, MAX_TRANSFORM_STEPS } from "./limits.js";
import { parseTransform } from "./parse-transform.js";
import type { TransformStep } from "./transform-step.js";

describe("limits", () => {
  // The longest value of every key: ar with one side (longer than w and h together), the
  // longest ar (lowest terms do not fit in 1..9999, so hundredths are kept), the longest name
  // of each list, and the longest effect.
  const longest: TransformStep = {
    w: 8192,
    ar: { w: 9999.99, h: 9999.98 },
    c: "limit",
    p: "attention",
    f: "avif",
    q: "auto",
    r: 359,
    flip: "hv",
    bg: "transparent",
    br: 8192,
    e: "brightness:-100",
  };

  it("lets the parser read the longest canonical transformation", () => {
    const step = buildTransform(longest);
    expect(step).toBe(
      "w_8192,ar_9999.99:9999.98,c_limit,p_attention,f_avif,q_auto,r_359,flip_hv,bg_transparent,br_8192,e_brightness:-100",
    );
    const transform = buildTransform(Array.from({ length: MAX_TRANSFORM_STEPS }, () => longest));
    expect(transform.length).toBeLessThanOrEqual(MAX_TRANSFORM_LENGTH);
    expect(buildTransform(parseTransform(transform))).toBe(transform);
  });
});
