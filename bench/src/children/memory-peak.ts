/**
 * What bench 3's upload clients report about their own memory: VmHWM from /proc/self/status
 * (`process.resourceUsage().maxRSS` is no good here, because Linux carries the parent's RSS at
 * fork over into the child's maxRSS across exec), and where the memory is, sampled every 10 ms:
 * V8 heap, and ArrayBuffers (part bodies, socket buffers).
 */
import { readFileSync } from "node:fs";

export function vmHwm(): number {
  const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
  return Number(match?.[1] ?? Number.NaN) * 1024;
}

/** Starts sampling; `stop()` ends it and resolves the peaks seen. */
export function samplePeaks(): { stop(): { heapUsed: number; arrayBuffers: number } } {
  const peak = { heapUsed: 0, arrayBuffers: 0 };
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, usage.arrayBuffers);
  }, 10);
  return {
    stop() {
      clearInterval(sampler);
      return peak;
    },
  };
}
