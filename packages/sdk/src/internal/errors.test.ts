import { describe, expect, it } from "vitest";
import * as errors from "./errors.js";
import { ConnectionError, TroveError } from "./errors.js";

// The names live on the prototypes and the fields are copied from `init` (no class fields, for
// the upload entry's size): every class must still look like a normal, named error.
const classes = Object.entries(errors).filter(
  (entry): entry is [string, typeof TroveError] =>
    typeof entry[1] === "function" && (entry[1] === TroveError || entry[1].prototype instanceof TroveError),
);

describe("the error family", () => {
  it("has all thirteen classes", () => {
    expect(classes).toHaveLength(13);
  });

  it.each(classes)("%s is named, an Error and a TroveError, and keeps its fields", (name, ErrorClass) => {
    const cause = new Error("root");
    const error = new ErrorClass("went wrong", {
      code: "TOKEN_EXPIRED",
      status: 499,
      retryAfterSeconds: 3,
      requestId: "req_9",
      body: { a: 1 },
      cause,
      requestNotSent: false,
    } as errors.TroveErrorInit);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(TroveError);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.name).toBe(name);
    expect(String(error)).toBe(`${name}: went wrong`);
    expect(error).toMatchObject({
      code: "TOKEN_EXPIRED",
      status: 499,
      retryAfterSeconds: 3,
      requestId: "req_9",
    });
    expect(error.body).toEqual({ a: 1 });
    expect(error.cause).toBe(cause);
  });

  it("sets no cause when there is none, and ConnectionError keeps requestNotSent", () => {
    const error = new ConnectionError("refused", { code: "CONNECTION_ERROR", requestNotSent: true });
    expect(error.requestNotSent).toBe(true);
    expect("cause" in error).toBe(false);
    expect(error.status).toBeUndefined();
  });
});
