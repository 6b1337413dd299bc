/** The machine line of RESULTS.md. */
import { cpus, loadavg, release, totalmem } from "node:os";

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  kernel: string;
  date: string;
}

export function describeMachine(): Machine {
  const list = cpus();
  return {
    cores: list.length,
    cpuModel: list[0]?.model.trim() ?? "?",
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: `Linux ${release()}`,
    date: new Date().toISOString(),
  };
}

export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
}
