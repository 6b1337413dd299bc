import { describe, expect, it } from "vitest";
import { createUploadTokenBodySchema, uploadPolicySchema } from "./upload-tokens.js";

describe("upload policy dimension limits", () => {
  it("take positive whole pixels and positive ratios", () => {
    const policy = {
      min_width: 800,
      max_width: 4000,
      min_height: 600,
      max_height: 3000,
      min_aspect_ratio: 0.5,
      max_aspect_ratio: 2,
    };
    expect(uploadPolicySchema.parse(policy)).toEqual(policy);
    expect(createUploadTokenBodySchema.parse({ ...policy, max_files: 3 })).toEqual({
      ...policy,
      max_files: 3,
    });
    for (const bad of [{ min_width: 0 }, { max_height: 10.5 }, { max_width: -1 }, { min_aspect_ratio: 0 }]) {
      expect(uploadPolicySchema.safeParse(bad).success).toBe(false);
    }
  });

  it("refuse a minimum above its maximum, naming both", () => {
    for (const schema of [uploadPolicySchema, createUploadTokenBodySchema]) {
      const result = schema.safeParse({
        min_width: 2000,
        max_width: 1000,
        min_aspect_ratio: 1,
        max_aspect_ratio: 1,
      });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["min_width", "min_width (2000) must not be greater than max_width (1000)"],
      ]);
    }
    expect(uploadPolicySchema.safeParse({ min_height: 5, max_height: 4 }).error?.issues[0]?.message).toBe(
      "min_height (5) must not be greater than max_height (4)",
    );
    expect(uploadPolicySchema.safeParse({ min_aspect_ratio: 2, max_aspect_ratio: 0.5 }).success).toBe(false);
  });
});
