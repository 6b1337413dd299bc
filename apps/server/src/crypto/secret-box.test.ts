import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, openSecret, sealSecret } from "./secret-box.js";

describe("secret box", () => {
  const key = randomBytes(32);
  it("round-trips and never contains the plaintext", () => {
    const sealed = sealSecret(key, "source-config", "AKIAEXAMPLESECRET");
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain("AKIAEXAMPLESECRET");
    expect(openSecret(key, "source-config", sealed)).toBe("AKIAEXAMPLESECRET");
    expect(sealSecret(key, "source-config", "x")).not.toBe(sealSecret(key, "source-config", "x"));
  });
  it("fails with another key, another purpose, or tampering", () => {
    const sealed = sealSecret(key, "a", "secret");
    expect(() => openSecret(randomBytes(32), "a", sealed)).toThrow();
    expect(() => openSecret(key, "b", sealed)).toThrow();
    // A character in the middle (never one carrying only base64 padding bits), always changed.
    const i = Math.floor(sealed.length / 2);
    const tampered = `${sealed.slice(0, i)}${sealed[i] === "A" ? "B" : "A"}${sealed.slice(i + 1)}`;
    expect(tampered).not.toBe(sealed);
    expect(() => openSecret(key, "a", tampered)).toThrow();
    expect(() => openSecret(key, "a", "plain")).toThrow();
  });
});
