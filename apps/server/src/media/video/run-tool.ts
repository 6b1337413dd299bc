/**
 * Runs ffmpeg or ffprobe as a child process with a deadline: no shell, no stdin, stdout kept
 * (ffprobe's JSON), stderr kept to its last few KB (for the debug log only). The child is killed
 * with SIGKILL on the deadline, on `signal` abort, or when `watch` says so, and the promise
 * settles only once the process is gone.
 */
import { spawn } from "node:child_process";

export interface ToolRun {
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  stdout: string;
  /** The last STDERR_TAIL_BYTES of stderr; never shown to clients. */
  stderrTail: string;
  /** Why the run was killed, if it was. */
  killed: "timeout" | "aborted" | "watch" | null;
}

export interface ToolRunOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Called every WATCH_INTERVAL_MS while the child runs; true kills it. */
  watch?: (() => Promise<boolean>) | undefined;
  /** Largest stdout kept, bytes; beyond it the child is killed as a `watch` kill. */
  maxStdoutBytes?: number;
}

const STDERR_TAIL_BYTES = 4096;
const WATCH_INTERVAL_MS = 100;
const DEFAULT_MAX_STDOUT = 4 * 1024 * 1024;

export function runTool(binary: string, args: readonly string[], options: ToolRunOptions): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrTail = "";
    let killed: ToolRun["killed"] = null;
    const kill = (reason: NonNullable<ToolRun["killed"]>) => {
      if (killed === null) killed = reason;
      child.kill("SIGKILL");
    };
    const maxStdout = options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT;
    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdout) kill("watch");
      else stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    });
    const timer = setTimeout(() => kill("timeout"), options.timeoutMs);
    const onAbort = () => kill("aborted");
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let watching = false;
    const watcher = options.watch
      ? setInterval(() => {
          if (watching || killed !== null) return;
          watching = true;
          options.watch?.().then(
            (stop) => {
              watching = false;
              if (stop) kill("watch");
            },
            () => {
              watching = false;
            },
          );
        }, WATCH_INTERVAL_MS)
      : undefined;
    const settle = () => {
      clearTimeout(timer);
      if (watcher) clearInterval(watcher);
      options.signal?.removeEventListener("abort", onAbort);
    };
    child.on("error", (error) => {
      settle();
      reject(error);
    });
    child.on("close", (exitCode) => {
      settle();
      resolve({ exitCode, stdout: Buffer.concat(stdout).toString("utf8"), stderrTail, killed });
    });
  });
}
