import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import type {
  anyUploadResponseSchema,
  multipartCompleteResponseSchema,
  multipartCompleteResultSchema,
  multipartSessionSchema,
  multipartStartBodySchema,
  uploadEnvelopeResponseSchema,
  uploadResponseSchema,
  wrappedUploadResponseSchema,
} from "./index.js";
import type * as Wire from "./upload-wire-types.js";

// Checked by `tsc` (typecheck): a field added to a schema and not to its interface fails here.
describe("the zod-free upload wire types", () => {
  it("equal the types the schemas infer", () => {
    expectTypeOf<Wire.UploadResponse>().toEqualTypeOf<z.infer<typeof uploadResponseSchema>>();
    expectTypeOf<Wire.WrappedUploadResponse>().toEqualTypeOf<z.infer<typeof wrappedUploadResponseSchema>>();
    expectTypeOf<Wire.UploadEnvelopeResponse>().toEqualTypeOf<z.infer<typeof uploadEnvelopeResponseSchema>>();
    expectTypeOf<Wire.AnyUploadResponse>().toEqualTypeOf<z.infer<typeof anyUploadResponseSchema>>();
    expectTypeOf<Wire.MultipartStartBodyInput>().toEqualTypeOf<z.input<typeof multipartStartBodySchema>>();
    expectTypeOf<Wire.MultipartSession>().toEqualTypeOf<z.infer<typeof multipartSessionSchema>>();
    expectTypeOf<Wire.MultipartCompleteResult>().toEqualTypeOf<
      z.infer<typeof multipartCompleteResultSchema>
    >();
    expectTypeOf<Wire.MultipartCompleteResponse>().toEqualTypeOf<
      z.infer<typeof multipartCompleteResponseSchema>
    >();
  });
});
