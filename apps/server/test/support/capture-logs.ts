/**
 * Captures pino output: `const logs = captureLogs(); createTestApp({ logger: { stream: logs.stream, level: "info" } })`,
 * then `logs.text()` (raw NDJSON) or `logs.lines()` (parsed).
 */
import { Writable } from "node:stream";

export function captureLogs() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return {
    stream,
    text: () => chunks.join(""),
    lines: (): Array<Record<string, unknown>> =>
      chunks
        .join("")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
