/**
 * CPU seconds used by a process (user + system), read from /proc/<pid>/stat, so a bench can say
 * which side of a transfer burns the cores; and the same for this process.
 */
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / TICKS_PER_SECOND;
}

export function selfCpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

/** CPU seconds of this process and of `pids` between `start()` and `stop()`. */
export function cpuMeter(pids: Record<string, number>) {
  const read = () => {
    const out: Record<string, number> = { client: selfCpuSeconds() };
    for (const [name, pid] of Object.entries(pids)) {
      try {
        out[name] = procCpuSeconds(pid);
      } catch {
        out[name] = Number.NaN;
      }
    }
    return out;
  };
  const before = read();
  return {
    stop(): Record<string, number> {
      const after = read();
      return Object.fromEntries(
        Object.entries(after).map(([name, value]) => [name, value - (before[name] ?? 0)]),
      );
    },
  };
}

/**
 * CPU seconds of every process of this machine whose command name starts with `name` (a
 * database's backends, which come and go): the work a server hands to them, on the same cores.
 */
export function commandCpuSeconds(name: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").startsWith(name))
        total += procCpuSeconds(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}
