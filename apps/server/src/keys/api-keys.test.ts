import { describe, expect, it } from "vitest";
import {
  apiKeyPrefix,
  generateApiKey,
  hashApiKey,
  isPlausibleApiKey,
  isWellFormedApiKey,
} from "./api-keys.js";

describe("API key material", () => {
  it("generates trove_pk_/trove_sk_ plus 32 base62 characters, all different", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const pk = generateApiKey("public");
      const sk = generateApiKey("private");
      expect(pk).toMatch(/^trove_pk_[0-9A-Za-z]{32}$/);
      expect(sk).toMatch(/^trove_sk_[0-9A-Za-z]{32}$/);
      expect(isWellFormedApiKey(pk)).toBe(true);
      keys.add(pk).add(sk);
    }
    expect(keys.size).toBe(400);
  });

  it("hashes with SHA-256 hex and keeps a short visible prefix", () => {
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const key = "trove_sk_ABCDEFGHijklmnop0123456789abcdef";
    expect(apiKeyPrefix(key)).toBe("trove_sk_ABCDEFGH");
    expect(apiKeyPrefix("my-custom-development-key")).toBe("my-custom-develop");
  });

  it("accepts plausible header values only", () => {
    expect(isPlausibleApiKey("short")).toBe(false);
    expect(isPlausibleApiKey("has space in the middle!!")).toBe(false);
    expect(isPlausibleApiKey("x".repeat(300))).toBe(false);
    expect(isPlausibleApiKey(generateApiKey("private"))).toBe(true);
  });
});
