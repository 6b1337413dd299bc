import { describe, expect, it } from "vitest";
import { checkFile, inputAccept, matchesAccept } from "./file-checks.js";
import { formatBytes } from "./format-transfer.js";

const file = (name: string, type: string, size = 1) => new File([new Uint8Array(size)], name, { type });

describe("matchesAccept", () => {
  it.each([
    ["image/*", "a.png", "image/png", true],
    ["image/*", "a.pdf", "application/pdf", false],
    [".PDF, image/png", "Report.pdf", "", true],
    ["video/mp4", "clip.mp4", "video/mp4", true],
    ["video/mp4", "clip.mov", "video/quicktime", false],
    ["", "anything.bin", "", true],
    // A phone's HEIC often comes with no type: its extension names it.
    ["image/*", "IMG_0001.HEIC", "", true],
    ["image/heic", "IMG_0001.heic", "", true],
    ["image/heif", "photo.heif", "", true],
    ["image/png", "IMG_0001.heic", "", false],
    ["image/*", "notes", "", false],
  ])("%s accepts %s (%s): %s", (accept, name, type, expected) => {
    expect(matchesAccept({ name, type }, accept)).toBe(expected);
  });
});

describe("inputAccept", () => {
  it("adds .heic and .heif where HEIC images are taken, so the picker offers them", () => {
    expect(inputAccept("image/*")).toBe("image/*,.heic,.heif");
    expect(inputAccept("image/heic, .heic")).toBe("image/heic, .heic,.heif");
    expect(inputAccept("image/png,.pdf")).toBe("image/png,.pdf");
    expect(inputAccept(undefined)).toBeUndefined();
  });
});

describe("checkFile", () => {
  it("names the file and the reason: type before size", () => {
    expect(
      checkFile(file("a.txt", "text/plain", 10), { accept: "image/*", maxSize: 1 }, formatBytes),
    ).toMatchObject({
      reason: "type",
      message: "a.txt: this type of file is not accepted here",
    });
    expect(
      checkFile(file("a.png", "image/png", 2_500_000), { maxSize: 1_000_000 }, formatBytes),
    ).toMatchObject({
      reason: "size",
      message: "a.png is 2.5 MB: the limit is 1.0 MB",
    });
    expect(
      checkFile(file("a.png", "image/png", 10), { accept: "image/*", maxSize: 10 }, formatBytes),
    ).toBeUndefined();
  });
});
