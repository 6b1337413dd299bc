import { TroveError } from "@trove/sdk/upload";

/**
 * Every error an item carries is a `TroveError`, so a page can `switch (item.error.code)`. The SDK
 * throws nothing else; a custom `fetch` or session store could, and its error is kept as `cause`.
 */
export function asTroveError(error: unknown): TroveError {
  if (error instanceof TroveError) return error;
  return new TroveError(error instanceof Error ? error.message : String(error), {
    code: "HTTP_ERROR",
    cause: error,
  });
}
