import type { Source } from "@trove/schema";
import { ReportedFailure } from "../cli-errors.js";
import { about } from "../format/error-subject.js";
import type { Client, Runtime } from "../runtime.js";

/**
 * The `workspace_no` of the key's workspace, read from the source named `name` (the server puts it
 * on every source it returns), so `trove sources url` needs nothing but the key. Finding the source
 * also catches a misspelt name before a URL that can only answer 404 is printed.
 */
export async function sourceWorkspaceNo(runtime: Runtime, client: Client, name: string): Promise<string> {
  let found: Source | undefined;
  await about(`source ${name}`, async () => {
    // `search` is a substring match: walk its pages for the exact, case-sensitive name.
    for await (const source of client.sources.listAll({ search: name, limit: 100 })) {
      if (source.name === name) {
        found = source;
        break;
      }
    }
  });
  if (!found) {
    runtime.warn(`Error: no source is named ${name} in this key's workspace (see \`trove sources ls\`).`);
    throw new ReportedFailure();
  }
  if (!found.workspace_no) {
    runtime.warn("Error: the server does not say which workspace the key belongs to: give --workspace.");
    throw new ReportedFailure();
  }
  if (!found.is_active) {
    runtime.warn(`Warning: source ${name} is inactive: its URLs answer 404 until it is reactivated.`);
  }
  return found.workspace_no;
}
