import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { sharedReading } from "./shared-reading.js";

describe("sharedReading", () => {
  it("reads once for a flood of concurrent and repeated scrapes within its TTL", async () => {
    let reads = 0;
    const reading = sharedReading(async () => {
      reads += 1;
      await sleep(5);
      return reads;
    }, 60_000);
    const values = await Promise.all(Array.from({ length: 200 }, () => reading()));
    expect(new Set(values)).toEqual(new Set([1]));
    expect(await reading()).toBe(1);
    expect(reads).toBe(1);
  });

  it("reads again once the TTL has passed", async () => {
    let reads = 0;
    const reading = sharedReading(async () => ++reads, 20);
    expect(await reading()).toBe(1);
    await sleep(80);
    expect(await reading()).toBe(2);
  });

  it("does not keep a failed reading: the next scrape tries again", async () => {
    let reads = 0;
    const reading = sharedReading(async () => {
      reads += 1;
      if (reads === 1) throw new Error("database down");
      return { sessions: 3 };
    }, 60_000);
    await expect(reading()).rejects.toThrow("database down");
    expect(await reading()).toEqual({ sessions: 3 });
    expect(reads).toBe(2);
  });
});
