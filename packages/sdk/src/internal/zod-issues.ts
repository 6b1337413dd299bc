import { isRecord } from "./is-record.js";
import type { ResponseSchema } from "./request/index.js";

/**
 * A zod schema whose failures carry its first issues as one line (`data.file_no: Invalid input:
 * expected string, received number`), the detail InvalidResponseError's message gives; the
 * ZodError is that error's cause. Only the full client parses with zod, so the upload entry does
 * not carry this.
 */
export function withIssueText<T>(schema: ResponseSchema<T>): ResponseSchema<T> {
  return {
    safeParse(value) {
      const result = schema.safeParse(value);
      return result.success
        ? result
        : { success: false, error: new Error(describeIssues(result.error), { cause: result.error }) };
    },
  };
}

function describeIssues(error: unknown): string {
  if (isRecord(error) && Array.isArray(error.issues)) {
    return error.issues
      .slice(0, 3)
      .map((issue: unknown) => {
        if (!isRecord(issue)) return String(issue);
        const path = Array.isArray(issue.path) && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
        return `${path}${String(issue.message)}`;
      })
      .join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}
