import * as z from "zod";
import { safeParseTransform } from "./parse-transform.js";

/**
 * A transform string, checked by parseTransform; an issue carries the parser's message
 * (`"q_200: quality must be 1..100"`) and, in `params.directive`, the directive it names.
 * The output is the string as given (a refinement, so the schema stays representable in JSON
 * Schema); canonicalise it with canonicalizeTransform once it is valid.
 */
export const transformStringSchema = z
  .string()
  .superRefine((value, ctx) => {
    const result = safeParseTransform(value);
    if (!result.success) {
      ctx.addIssue({
        code: "custom",
        message: result.error.message,
        params: { directive: result.error.directive },
      });
    }
  })
  .meta({
    description: "Image transformation: steps separated by /, directives key_value separated by commas",
    examples: ["w_300,h_300,c_fill,f_webp", "w_800/e_grayscale"],
  });
