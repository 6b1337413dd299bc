/**
 * Starts Debian's `redis-server` (installed by .ci/run) as a child process on 127.0.0.1 with a
 * free port, no persistence and no config file, for the suites where several trove-server
 * instances share one rate limit. Fails with a clear message when redis-server is not on PATH.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { freePort } from "@trove/test-support/ports";

export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port }, () => socket.write("PING\r\n"));
    socket.setTimeout(500, () => socket.destroy());
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
    socket.once("close", () => resolve(false));
  });
}

export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const spawnError = new Promise<Error>((resolve) => child.once("error", resolve));
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    const failed = await Promise.race([spawnError, new Promise((r) => setTimeout(() => r(undefined), 100))]);
    if (failed instanceof Error)
      throw new Error(`redis-server could not start (apt-get install redis-server): ${failed.message}`);
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`redis-server did not start:\n${output}`);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
