/**
 * One real server for a whole test file (or describe block): started before its first test,
 * stopped after its last. The object is filled in when the server is up, so tests read
 * `server.baseUrl` as they would from `startServerProcess`.
 */
import { afterAll, beforeAll } from "vitest";
import { type ServerProcess, type ServerProcessOptions, startServerProcess } from "./server-process.js";

export function useServerProcess(
  env: Record<string, string> = {},
  options: ServerProcessOptions = {},
): ServerProcess {
  const server = {} as ServerProcess;
  beforeAll(async () => {
    Object.assign(server, await startServerProcess(env, options));
  });
  afterAll(async () => {
    await server.stop?.();
  });
  return server;
}
