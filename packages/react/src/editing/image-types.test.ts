import { describe, expect, it } from "vitest";
import { canEditImage, encodedFile, isHeif, renamedFor } from "./image-types.js";

const file = (name: string, type: string) => new File([new Uint8Array(4)], name, { type, lastModified: 1 });

describe("image types", () => {
  it("edits JPEG, PNG and WebP only; HEIC by type or name never", () => {
    expect(canEditImage(file("a.jpg", "image/jpeg"))).toBe(true);
    expect(canEditImage(file("a.png", "image/png"))).toBe(true);
    expect(canEditImage(file("a.webp", "image/webp"))).toBe(true);
    expect(canEditImage(file("a.gif", "image/gif"))).toBe(false);
    expect(canEditImage(file("a.pdf", "application/pdf"))).toBe(false);
    expect(isHeif(file("IMG_1.HEIC", ""))).toBe(true);
    expect(isHeif(file("x", "image/heif"))).toBe(true);
  });

  it("keeps the name unless the encoder wrote another type", () => {
    expect(renamedFor(file("photo.webp", "image/webp"), "image/webp")).toBe("photo.webp");
    expect(renamedFor(file("photo.webp", "image/webp"), "image/png")).toBe("photo.png");
    expect(renamedFor(file("noext", "image/gif"), "image/png")).toBe("noext.png");
    const out = encodedFile(
      file("a.jpg", "image/jpeg"),
      new Blob([new Uint8Array(2)], { type: "image/jpeg" }),
    );
    expect([out.name, out.type, out.size, out.lastModified]).toEqual(["a.jpg", "image/jpeg", 2, 1]);
  });
});
