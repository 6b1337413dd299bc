import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Where `trove upload` keeps its multipart sessions so that an interrupted upload resumes:
 * `$TROVE_STATE_DIR/uploads.json`, else `~/.trove/uploads.json`.
 */
export function uploadSessionsPath(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.TROVE_STATE_DIR?.trim() ? env.TROVE_STATE_DIR.trim() : join(homedir(), ".trove");
  return join(dir, "uploads.json");
}
