import { describe, expect, it } from "vitest";
import {
  allVariantCachePrefixes,
  negotiatesFormat,
  variantCacheKey,
  variantCachePrefix,
} from "./variant-cache-key.js";

describe("variantCacheKey", () => {
  const key = "ws_1/photos/cat.jpg";

  it("is stable, fixed-length and under the file's prefix", () => {
    const first = variantCacheKey(key, "w_300,h_300,c_fill", "avif");
    expect(variantCacheKey(key, "w_300,h_300,c_fill", "avif")).toBe(first);
    expect(first.startsWith(variantCachePrefix(key))).toBe(true);
    expect(first).toMatch(/^variants\/v2\/[0-9a-f]{32}\/[0-9a-f]{64}$/);
  });

  it("differs by file and by transform", () => {
    const base = variantCacheKey(key, "w_300", "legacy");
    expect(variantCacheKey("ws_1/photos/dog.jpg", "w_300", "legacy")).not.toBe(base);
    expect(variantCacheKey(key, "w_301", "legacy")).not.toBe(base);
  });

  it("includes the negotiated format only for f_auto", () => {
    const auto = (choice: "avif" | "webp" | "legacy") => variantCacheKey(key, "w_300,f_auto", choice);
    expect(new Set([auto("avif"), auto("webp"), auto("legacy")]).size).toBe(3);
    expect(variantCacheKey(key, "w_300/e_grayscale,f_auto", "avif")).not.toBe(
      variantCacheKey(key, "w_300/e_grayscale,f_auto", "webp"),
    );
    // An explicit format does not depend on Accept: one entry for every client.
    expect(variantCacheKey(key, "w_300,f_webp", "avif")).toBe(variantCacheKey(key, "w_300,f_webp", "legacy"));
    expect(variantCacheKey(key, "q_auto", "avif")).toBe(variantCacheKey(key, "q_auto", "webp"));
  });

  it("names every renderer version's prefix, so a file's older variants go with it", () => {
    expect(allVariantCachePrefixes(key)).toEqual([
      variantCachePrefix(key),
      variantCachePrefix(key).replace("variants/v2/", "variants/v1/"),
    ]);
  });

  it("keeps any storage key out of the cache key's text", () => {
    expect(variantCacheKey("../../etc/passwd\n", "w_1", "legacy")).not.toContain("..");
  });

  it("follows the content of the files image layers name, and only when there are some", () => {
    const transform = "l_image:logo.png,fl_layer_apply";
    expect(variantCacheKey(key, "w_1", "legacy", [])).toBe(variantCacheKey(key, "w_1", "legacy"));
    const before = variantCacheKey(key, transform, "legacy", ["logo.png\nhash-a"]);
    expect(variantCacheKey(key, transform, "legacy", ["logo.png\nhash-b"])).not.toBe(before);
    expect(variantCacheKey(key, transform, "legacy", ["logo.png\nhash-a"])).toBe(before);
    expect(variantCacheKey(key, transform, "legacy")).not.toBe(before);
  });

  it("tells which transforms depend on Accept", () => {
    expect(negotiatesFormat("f_auto")).toBe(true);
    expect(negotiatesFormat("w_300,f_auto,q_auto")).toBe(true);
    expect(negotiatesFormat("w_300/f_auto")).toBe(true);
    expect(negotiatesFormat("w_300,f_webp,q_auto")).toBe(false);
    expect(negotiatesFormat("")).toBe(false);
  });
});
