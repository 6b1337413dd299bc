/**
 * Builds an example with its own Vite (the version it pins) in a child process, as `pnpm build`
 * does, into a temporary directory, with the given `VITE_*` variables.
 */
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function viteBuild(exampleDir: string, env: Record<string, string>): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), "trove-example-build-"));
  const vite = join(exampleDir, "node_modules", "vite", "bin", "vite.js");
  // The test worker's NODE_ENV=test and VITEST_* must not leak into a production build.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST")),
  );
  const child = spawn(
    process.execPath,
    [vite, "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"],
    {
      cwd: exampleDir,
      env: { ...base, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (data: Buffer) => {
    output += data.toString();
  });
  child.stderr.on("data", (data: Buffer) => {
    output += data.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0) throw new Error(`vite build in ${exampleDir} exited with ${code}:\n${output}`);
  return outDir;
}
