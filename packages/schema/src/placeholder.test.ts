import { describe, expect, it } from "vitest";
import { fileDetailsSchema, fileListRowSchema } from "./files.js";
import { listPlaceholderSchema, placeholderSchema } from "./placeholder.js";

const placeholder = {
  thumbhash: "1joDBYA6OXt2iHh3ePd3eAt41wR3",
  color: "#c8281e",
  data_url: "data:image/webp;base64,UklGRg==",
};

describe("placeholder", () => {
  it("accepts a ThumbHash, a lowercase #rrggbb and a WebP data URL of at most 1 KiB", () => {
    expect(placeholderSchema.parse(placeholder)).toEqual(placeholder);
    expect(placeholderSchema.safeParse({ ...placeholder, color: "#C8281E" }).success).toBe(false);
    expect(placeholderSchema.safeParse({ ...placeholder, color: "red" }).success).toBe(false);
    expect(
      placeholderSchema.safeParse({ ...placeholder, data_url: "data:image/png;base64,AA==" }).success,
    ).toBe(false);
    const long = `data:image/webp;base64,${"A".repeat(1024)}`;
    expect(placeholderSchema.safeParse({ ...placeholder, data_url: long }).success).toBe(false);
  });

  it("a list row's has no data_url", () => {
    expect(listPlaceholderSchema.parse(placeholder)).toEqual({
      thumbhash: placeholder.thumbhash,
      color: "#c8281e",
    });
  });

  it("is an optional, nullable addition: records without it (the hosted service's) still parse", () => {
    const row = {
      file_no: "1",
      name: "a.jpg",
      thumbanil: null,
      url: "https://cdn.example/a.jpg",
      file_size: 1,
      format: "jpeg",
      width: 1,
      height: 1,
      created_at: "2026-01-01T00:00:00.000Z",
      workspace_no: "ws",
      path: "a.jpg",
      extension: "jpg",
    };
    expect(fileListRowSchema.parse(row).placeholder).toBeUndefined();
    expect(fileListRowSchema.parse({ ...row, placeholder: null }).placeholder).toBeNull();
    expect(fileListRowSchema.parse({ ...row, placeholder }).placeholder).toEqual({
      thumbhash: placeholder.thumbhash,
      color: placeholder.color,
    });
    expect(fileDetailsSchema.shape.placeholder.safeParse(placeholder).success).toBe(true);
    expect(fileDetailsSchema.shape.placeholder.safeParse(undefined).success).toBe(true);
  });
});
