import type * as z from "zod";
import type { ErrorCode } from "./error-codes.js";
import { type ErrorEnvelopeKind, type ErrorVariant, errorEnvelopeOf } from "./error-envelopes.js";
import type { ResponseGroup } from "./error-groups.js";
import {
  adminErrorSchema,
  errorMessageSchema,
  errorOnlySchema,
  failureSchema,
  failureWithMessageSchema,
  fileNotFoundCodeSchema,
  rateLimitErrorSchema,
  uploadErrorSchema,
} from "./errors.js";

/** The schema of each envelope of ./error-envelopes.ts. */
const SHAPES: Readonly<Record<ErrorEnvelopeKind, z.ZodType>> = {
  rateLimit: rateLimitErrorSchema,
  admin: adminErrorSchema,
  upload: uploadErrorSchema,
  uploadUnauthorized: uploadErrorSchema,
  unauthorized: failureWithMessageSchema,
  sourcesUnauthorized: errorMessageSchema,
  otherUnauthorized: errorMessageSchema,
  forbidden: errorMessageSchema,
  titled: errorMessageSchema,
  failure: failureSchema,
  policyRefusal: failureSchema,
  errorOnly: errorOnlySchema,
  fileNotFoundCode: fileNotFoundCodeSchema,
};

/**
 * The schema of the envelope a group answers with for a status: the OpenAPI document's error
 * responses. The envelope comes from the table `buildErrorBody` reads (./error-envelopes.ts);
 * `variant` picks between two shapes a group uses for one status, `errorCode` a policy refusal's.
 */
export function errorShapeFor(
  group: ResponseGroup,
  status: number,
  variant?: ErrorVariant,
  errorCode?: ErrorCode,
): z.ZodType {
  return SHAPES[errorEnvelopeOf(group, status, variant, errorCode)];
}
