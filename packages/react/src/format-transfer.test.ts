import { describe, expect, it } from "vitest";
import { formatBytes, formatDuration, formatSpeed } from "./format-transfer.js";
import { addSample, bytesPerSecond, RATE_WINDOW_MS, secondsLeft } from "./transfer-rate.js";

describe("formatting", () => {
  it("prints sizes in decimal units, speeds per second and durations in s, min and h", () => {
    expect([0, 999, 1_000, 12_345_678, 5e12].map(formatBytes)).toEqual([
      "0 B",
      "999 B",
      "1.0 KB",
      "12.3 MB",
      "5.0 TB",
    ]);
    expect(formatSpeed(1_500_000)).toBe("1.5 MB/s");
    expect([5, 125, 7_260].map(formatDuration)).toEqual(["5 s", "2 min 5 s", "2 h 1 min"]);
  });
});

describe("transfer rate", () => {
  it("measures over the recent window only and says nothing from too short a span", () => {
    let samples = addSample([], { at: 0, sent: 0 });
    samples = addSample(samples, { at: 100, sent: 1_000_000 });
    expect(bytesPerSecond(samples)).toBeUndefined();
    samples = addSample(samples, { at: RATE_WINDOW_MS + 100, sent: 1_600_000 });
    // The fast start (0 → 1 MB in 100 ms) fell out of the window.
    expect(samples[0]).toEqual({ at: 100, sent: 1_000_000 });
    expect(bytesPerSecond(samples)).toBe(120_000); // 600 kB in 5 s
    expect(secondsLeft(400_000, 120_000)).toBe(4);
    expect(secondsLeft(400_000, undefined)).toBeUndefined();
  });
});
