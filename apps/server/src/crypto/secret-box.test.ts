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
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}${sealed.slice(-1)}`;
    expect(() => openSecret(key, "a", tampered)).toThrow();
    expect(() => openSecret(key, "a", "plain")).toThrow();
  });
});
