import { describe, expect, it } from "vitest";
import { spawnChild, stopAllChildren } from "../src/children.js";

const node = process.execPath;

describe("spawnChild", () => {
  it("keeps the end of the output, as much as asked", async () => {
    const child = spawnChild(node, ["-e", "process.stdout.write('a'.repeat(50) + 'END')"], {
      keepOutput: 10,
    });
    await new Promise((resolve) => child.process.once("close", resolve));
    expect(child.output()).toBe("aaaaaaaEND");
    expect(child.exited()).toBe(true);
  });

  it("stop() ends a child that ignores SIGTERM with SIGKILL after the grace", async () => {
    const child = spawnChild(node, [
      "-e",
      "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)",
    ]);
    await new Promise((resolve) => child.process.stdout?.once("data", resolve));
    await child.stop(200);
    expect(child.process.signalCode).toBe("SIGKILL");
  });

  it("stopAllChildren() stops every child still running", async () => {
    const children = [1, 2].map(() => spawnChild(node, ["-e", "setInterval(() => {}, 1000)"]));
    await stopAllChildren();
    expect(children.map((child) => child.exited())).toEqual([true, true]);
  });
});
