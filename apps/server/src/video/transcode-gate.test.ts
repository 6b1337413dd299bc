import { describe, expect, it } from "vitest";
import { TranscodeGate } from "./transcode-gate.js";

/** A task that runs until `finish()` is called, counting how many run at once. */
function tasks() {
  let running = 0;
  let peak = 0;
  const finishers: Array<() => void> = [];
  const task = () => async () => {
    running += 1;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => finishers.push(resolve));
    running -= 1;
  };
  return { task, finishers, peak: () => peak, running: () => running };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("TranscodeGate", () => {
  it("runs at most `concurrency` tasks at once, the others in arrival order", async () => {
    const gate = new TranscodeGate(2);
    const { task, finishers, peak, running } = tasks();
    const order: number[] = [];
    const all = [1, 2, 3, 4, 5].map((n) =>
      gate.run(async () => {
        order.push(n);
        await task()();
      }),
    );
    await tick();
    expect(running()).toBe(2);
    while (finishers.length > 0) {
      finishers.shift()!();
      await tick();
      await tick();
    }
    await Promise.all(all);
    expect(peak()).toBe(2);
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });

  it("frees the slot when a task throws", async () => {
    const gate = new TranscodeGate(1);
    await expect(gate.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(gate.run(async () => "next")).resolves.toBe("next");
  });
});
