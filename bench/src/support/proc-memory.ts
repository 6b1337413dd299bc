/**
 * Reads another process's memory from /proc/<pid>/status (Linux): VmRSS is the resident set
 * now, VmHWM its peak so far. `sampleRss` polls VmRSS while a measured step runs.
 */
import { readFileSync } from "node:fs";

export interface ProcMemory {
  rss: number;
  hwm: number;
}

export function readProcMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status);
    if (!match) throw new Error(`/proc/${pid}/status has no ${name}`);
    return Number(match[1]) * 1024;
  };
  return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

export interface RssSampler {
  /** Stops sampling; the peak VmRSS seen (bytes) and the number of samples. */
  stop(): { peak: number; samples: number };
}

export function sampleRss(pid: number, intervalMs = 20): RssSampler {
  let peak = readProcMemory(pid).rss;
  let samples = 1;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, readProcMemory(pid).rss);
      samples += 1;
    } catch {
      // the process ended; keep what was seen
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      try {
        peak = Math.max(peak, readProcMemory(pid).rss);
        samples += 1;
      } catch {
        // gone
      }
      return { peak, samples };
    },
  };
}
