import { describe, expect, it } from "vitest";
import * as z from "zod";
import { transformStringSchema } from "./transform-string-schema.js";

describe("transformStringSchema", () => {
  it("accepts a valid transform string as given", () => {
    expect(transformStringSchema.parse("h_300,w_300,f_jpeg")).toBe("h_300,w_300,f_jpeg");
  });

  it("carries the parser's message and directive", () => {
    const result = transformStringSchema.safeParse("w_300,q_200");
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        code: "custom",
        message: "q_200: quality must be 1..100",
        params: { directive: "q_200" },
        path: [],
      }),
    ]);
  });

  it("reports errors without a directive", () => {
    expect(transformStringSchema.safeParse("").error?.issues[0]?.message).toBe("transform is empty");
  });

  it("rejects values that are not strings with zod's own error", () => {
    expect(transformStringSchema.safeParse(300).error?.issues[0]?.code).toBe("invalid_type");
  });

  it("points at the field inside a request schema", () => {
    const upload = z.object({ transform: transformStringSchema.optional() });
    expect(upload.parse({})).toEqual({});
    const issue = upload.safeParse({ transform: "w_1,,h_1" }).error?.issues[0];
    expect(issue?.path).toEqual(["transform"]);
    expect(issue?.message).toBe("step 1 has an empty directive");
  });

  it("is a string in JSON Schema", () => {
    expect(z.toJSONSchema(transformStringSchema)).toMatchObject({
      type: "string",
      examples: ["w_300,h_300,c_fill,f_webp", "w_800/e_grayscale"],
    });
  });
});
