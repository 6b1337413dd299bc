import { describe, expect, it } from "vitest";
import { startSweepTimer } from "./sweep-timer.js";

const until = async (condition: () => boolean, timeoutMs = 2_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe("startSweepTimer", () => {
  it("runs at once, then again after each run, and goes on after a failed run", async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const timer = startSweepTimer({
      intervalMs: 20,
      run: async () => {
        runs += 1;
        // The database is out of reach for the second run.
        if (runs === 2) throw new Error("Connection terminated unexpectedly");
      },
      onError: (error) => errors.push(error),
    });
    expect(runs).toBe(1);
    await until(() => runs >= 4);
    await timer.stop();
    expect(errors).toHaveLength(1);
  });

  it("never overlaps runs, and stop() waits for the one in progress and ends the clock", async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const timer = startSweepTimer({
      intervalMs: 1,
      run: async () => {
        runs += 1;
        active += 1;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, 30));
        active -= 1;
      },
      onError: () => {},
    });
    await until(() => runs >= 3);
    await timer.stop();
    expect(active).toBe(0);
    expect(maxActive).toBe(1);
    const stoppedAt = runs;
    await new Promise((r) => setTimeout(r, 60));
    expect(runs).toBe(stoppedAt);
  });
});
