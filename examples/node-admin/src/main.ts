/**
 * Manages folders and sources of a Trove workspace with a private key:
 *
 *   TROVE_API_KEY=trove_sk_… TROVE_BASE_URL=http://127.0.0.1:3000 npm start
 *
 * Everything it creates is named after this run and deleted again at the end.
 */
import { createClient, PermissionDeniedError, TroveError } from "@trove/sdk/node";
import { manageFolders } from "./folders.js";
import { readSettings } from "./settings.js";
import { manageSources } from "./sources.js";

const log = (line: string) => console.log(`  ${line}`);

async function main(): Promise<void> {
  const { apiKey, baseUrl } = readSettings();
  const trove = createClient({ apiKey, baseUrl });
  // Source names allow letters, digits, _ and -; folder names anything but slashes.
  const name = `node-admin-${Date.now().toString(36)}`;

  console.log(`Trove admin example against ${baseUrl}\n`);
  console.log("Folders");
  await manageFolders(trove, name, log);
  console.log("\nSources");
  await manageSources(trove, name, log);
  console.log("\nDone: everything created was deleted again.");
}

main().catch((error: unknown) => {
  if (error instanceof PermissionDeniedError) {
    console.error(
      "Error: this key may not manage folders and sources (403). Use a private key (trove_sk_…).",
    );
  } else if (error instanceof TroveError) {
    console.error(`Error: ${error.message} (${error.status ?? "no response"} ${error.code})`);
  } else {
    console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
});
