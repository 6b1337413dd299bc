import { describe, expect, it } from "vitest";
import { uuidV7 } from "./uuid-v7.js";

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("uuidV7", () => {
  it("writes the time in the first 48 bits, then version 7 and the RFC variant", () => {
    const at = Date.UTC(2026, 10, 26, 12, 0, 0, 123);
    const id = uuidV7(at);
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it("sorts by time as text, as the database's own v7 ids do", () => {
    const ids = [0, 1, 255, 2 ** 32, Date.now(), 2 ** 48 - 1].map((at) => uuidV7(at));
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]?.startsWith("00000000-0000-7")).toBe(true);
  });

  it("draws fresh random bits for every id of the same millisecond", () => {
    const ids = new Set(Array.from({ length: 2000 }, () => uuidV7(1_700_000_000_000)));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });

  it.each([-1, 2 ** 48, 1.5, Number.NaN])("refuses the time %s", (at) => {
    expect(() => uuidV7(at)).toThrow(RangeError);
  });
});
