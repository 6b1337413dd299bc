import { describe, expect, it } from "vitest";
import { formatBytes, formatDuration, formatSpeed } from "./format-transfer.js";
import { addSample, bytesPerSecond, RATE_WINDOW_MS, secondsLeft } from "./transfer-rate.js";

describe("formatting", () => {
  it("prints sizes in decimal units (1 kB = 1,000 B), speeds per second and durations in sec, min and hr", () => {
    expect([0, 999, 1_000, 12_345_678, 150_000_000, 5e12].map((bytes) => formatBytes(bytes))).toEqual([
      "0 B",
      "999 B",
      "1.0 kB",
      "12.3 MB",
      "150 MB",
      "5.0 TB",
    ]);
    // Just under a unit's end rounds into the next unit, never "1000.0 kB".
    expect(formatBytes(999_960)).toBe("1.0 MB");
    expect(formatSpeed(1_500_000)).toBe("1.5 MB/s");
    expect(formatSpeed(500)).toBe("500 B/s");
    expect([5, 125, 7_260].map((seconds) => formatDuration(seconds))).toEqual([
      "5 sec",
      "2 min 5 sec",
      "2 hr 1 min",
    ]);
  });

  it("writes numbers and units in the given locale", () => {
    // ICU versions differ in which space they put before the unit (no-break or narrow no-break).
    const spaced = (text: string) => text.replace(/\s/g, " ");
    expect(spaced(formatBytes(12_345_678, "fr"))).toBe("12,3 Mo");
    expect(spaced(formatBytes(500, "fr"))).toBe("500 o");
    expect(spaced(formatBytes(1_234, "de"))).toBe("1,2 kB");
    expect(spaced(formatSpeed(2_500_000, "fr"))).toBe("2,5 Mo/s");
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
