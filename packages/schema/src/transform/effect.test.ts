import { describe, expect, it } from "vitest";
import { isNoOpEffect, readEffect, splitEffect } from "./effect.js";

describe("effects", () => {
  it("splits an effect into name and amount", () => {
    expect(splitEffect("grayscale")).toEqual({ name: "grayscale", amount: undefined });
    expect(splitEffect("sharpen")).toEqual({ name: "sharpen", amount: undefined });
    expect(splitEffect("blur:20")).toEqual({ name: "blur", amount: 20 });
    expect(splitEffect("brightness:-40")).toEqual({ name: "brightness", amount: -40 });
  });

  it("reads the bounds of each amount", () => {
    for (const text of [
      "blur:1",
      "blur:100",
      "sharpen:1",
      "sharpen:100",
      "contrast:-100",
      "saturation:100",
    ]) {
      expect(readEffect(text)).toEqual({ ok: true, value: text });
    }
  });

  it("knows which effects do nothing", () => {
    expect(isNoOpEffect("brightness:0")).toBe(true);
    expect(isNoOpEffect("contrast:0")).toBe(true);
    expect(isNoOpEffect("saturation:0")).toBe(true);
    expect(isNoOpEffect("saturation:1")).toBe(false);
    expect(isNoOpEffect("grayscale")).toBe(false);
  });
});
