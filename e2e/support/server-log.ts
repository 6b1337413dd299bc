/** Reading what a trove-server child process logged (pino JSON lines), for the suites' figures. */

/** "type: message" of every distinct error the server logged at level error or above (pino JSON lines). */
export function distinctLoggedErrors(output: string): string[] {
  const seen = new Set<string>();
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      const entry = JSON.parse(line) as {
        level?: number;
        msg?: string;
        err?: { type?: string; code?: string; message?: string };
      };
      if ((entry.level ?? 0) < 50) continue;
      const err = entry.err;
      seen.add(`${entry.msg}: ${err?.type ?? ""} ${err?.code ?? ""} ${(err?.message ?? "").slice(0, 120)}`);
    } catch {}
  }
  return [...seen];
}
