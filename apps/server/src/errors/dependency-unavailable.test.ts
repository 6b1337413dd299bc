import { describe, expect, it } from "vitest";
import { isDependencyUnavailable } from "./dependency-unavailable.js";

const withCode = (code: string, message = "boom") => Object.assign(new Error(message), { code });

describe("isDependencyUnavailable", () => {
  it.each([
    ["a refused connection", withCode("ECONNREFUSED")],
    ["a reset socket", withCode("ECONNRESET", "read ECONNRESET")],
    ["Prisma: server closed the connection", withCode("P1017")],
    ["Prisma: cannot reach the database", withCode("P1001")],
    ["Prisma: no connection to start a transaction in time", withCode("P2028")],
    [
      "a raw query on a closed connection",
      withCode("P2010", "Raw query failed. Message: `Server has closed the connection.`"),
    ],
    ["pg's lost connection", new Error("Connection terminated unexpectedly")],
    [
      "the driver adapter's closed connection",
      Object.assign(new Error("ConnectionClosed"), {
        name: "DriverAdapterError",
        cause: { kind: "ConnectionClosed" },
      }),
    ],
    [
      "a reset socket two causes down",
      new Error("outer", { cause: new Error("middle", { cause: withCode("ECONNRESET") }) }),
    ],
    ["one reset among several", new AggregateError([new Error("x"), withCode("ETIMEDOUT")])],
  ])("recognises %s", (_label, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ["a bug", new TypeError("cannot read properties of undefined")],
    ["a unique violation", withCode("P2002")],
    [
      "the driver adapter's unique violation",
      Object.assign(new Error("UniqueConstraintViolation"), { cause: { kind: "UniqueConstraintViolation" } }),
    ],
    ["a raw query's syntax error", withCode("P2010", "Raw query failed. Message: syntax error at or near")],
    ["a missing file", withCode("ENOENT")],
    ["no error at all", undefined],
    ["a string", "ECONNRESET"],
  ])("leaves %s alone", (_label, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });

  it("stops on a cyclic cause chain", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    Object.assign(a, { cause: b });
    expect(isDependencyUnavailable(a)).toBe(false);
  });
});
