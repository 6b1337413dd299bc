import { afterEach, describe, expect, it, vi } from "vitest";
import { RenderBusyError, RenderGate } from "./render-gate.js";

/** A task that runs until its `finish` is called. */
function pendingTask() {
  let finish = () => {};
  const started = vi.fn();
  const task = () =>
    new Promise<string>((resolve) => {
      started();
      finish = () => resolve("done");
    });
  return { task, started, finish: () => finish() };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("RenderGate", () => {
  it("runs at most `concurrency` tasks and hands each freed slot to the longest waiter", async () => {
    const gate = new RenderGate({ concurrency: 2, queue: 4, waitMs: 60_000 });
    const tasks = Array.from({ length: 4 }, pendingTask);
    const results = tasks.map((t) => gate.run(t.task));
    await Promise.resolve();
    expect(tasks.map((t) => t.started.mock.calls.length)).toEqual([1, 1, 0, 0]);
    expect(gate.load).toEqual({ running: 2, waiting: 2 });
    tasks[1]?.finish();
    await results[1];
    await vi.waitFor(() => expect(tasks[2]?.started).toHaveBeenCalled());
    expect(tasks[3]?.started).not.toHaveBeenCalled();
    for (const t of tasks) t.finish();
    await vi.waitFor(() => expect(tasks[3]?.started).toHaveBeenCalled());
    tasks[3]?.finish();
    await expect(Promise.all(results)).resolves.toEqual(["done", "done", "done", "done"]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses at once with 503 and Retry-After when the queue is full", async () => {
    const gate = new RenderGate({ concurrency: 1, queue: 1, waitMs: 2_500 });
    const first = pendingTask();
    const second = pendingTask();
    const running = gate.run(first.task);
    const waiting = gate.run(second.task);
    const refused = gate.run(async () => "never");
    await expect(refused).rejects.toBeInstanceOf(RenderBusyError);
    await expect(refused).rejects.toMatchObject({ status: 503, retryAfterSeconds: 3 });
    first.finish();
    await vi.waitFor(() => expect(second.started).toHaveBeenCalled());
    second.finish();
    await expect(Promise.all([running, waiting])).resolves.toEqual(["done", "done"]);
  });

  it("refuses a waiter that gets no slot within waitMs, and keeps the slot count right", async () => {
    vi.useFakeTimers();
    const gate = new RenderGate({ concurrency: 1, queue: 4, waitMs: 1_000 });
    const first = pendingTask();
    const running = gate.run(first.task);
    const late = gate.run(async () => "late");
    const assertion = expect(late).rejects.toMatchObject({ status: 503 });
    await vi.advanceTimersByTimeAsync(1_001);
    await assertion;
    expect(gate.load).toEqual({ running: 1, waiting: 0 });
    first.finish();
    await running;
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    await expect(gate.run(async () => "next")).resolves.toBe("next");
  });

  it("frees the slot when a task throws", async () => {
    const gate = new RenderGate({ concurrency: 1, queue: 0, waitMs: 10 });
    await expect(gate.run(async () => Promise.reject(new Error("decode failed")))).rejects.toThrow(
      "decode failed",
    );
    await expect(gate.run(async () => "ok")).resolves.toBe("ok");
  });
});
