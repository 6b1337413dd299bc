import { describe, expect, it } from "vitest";
import { fileKind } from "./file-type-icon.js";
import { brokenImageRule, hasImageLimits } from "./image-limits.js";
import { ENGLISH } from "./uploader-strings.js";

describe("image limits", () => {
  it("name the first rule an image's size breaks, in the strings' words", () => {
    const limits = { minWidth: 800, maxWidth: 4000, minHeight: 600, maxHeight: 3000 };
    expect(brokenImageRule({ width: 640, height: 480 }, limits, ENGLISH)).toBe("at least 800 px wide");
    expect(brokenImageRule({ width: 5000, height: 480 }, limits, ENGLISH)).toBe("at most 4000 px wide");
    expect(brokenImageRule({ width: 1000, height: 500 }, limits, ENGLISH)).toBe("at least 600 px high");
    expect(brokenImageRule({ width: 1000, height: 3001 }, limits, ENGLISH)).toBe("at most 3000 px high");
    expect(brokenImageRule({ width: 800, height: 600 }, limits, ENGLISH)).toBeUndefined();
    expect(hasImageLimits({})).toBe(false);
    expect(hasImageLimits(undefined)).toBe(false);
    expect(hasImageLimits({ maxHeight: 10 })).toBe(true);
  });

  it("tell images from other files by type, or by extension when the browser gave none", () => {
    const kind = (name: string, type = "") => fileKind({ name, type });
    expect(kind("a.png", "image/png")).toBe("image");
    expect(kind("IMG_0042.HEIC")).toBe("image");
    expect(kind("clip.mov")).toBe("video");
    expect(kind("x.pdf", "application/pdf")).toBe("pdf");
    expect(kind("b.zip", "application/zip")).toBe("archive");
    expect(kind("c.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document")).toBe(
      "text",
    );
    expect(kind("d.bin", "application/octet-stream")).toBe("other");
  });
});
