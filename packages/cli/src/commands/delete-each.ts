import { ReportedFailure } from "../cli-errors.js";
import { errorJson } from "../format/error-json.js";
import { about, type ErrorAbout } from "../format/error-subject.js";
import type { Runtime } from "../runtime.js";

/**
 * Deletes one item after another; a failure is reported and the rest still go. The exit code
 * is 1 if any failed.
 */
export async function deleteEach(
  runtime: Runtime,
  json: boolean | undefined,
  ids: string[],
  kind: "file" | "folder" | "source",
  remove: (id: string) => Promise<unknown>,
  hint?: (id: string) => string,
): Promise<void> {
  const results: Record<string, unknown>[] = [];
  let failed = 0;
  for (const id of ids) {
    const key = kind === "source" ? "id" : `${kind}_no`;
    try {
      const what: ErrorAbout = {
        subject: `${kind} ${id}`,
        action: "delete",
        ...(hint ? { hint: hint(id) } : {}),
      };
      const answer = await about(what, () => remove(id));
      const message = (answer as { message?: unknown } | undefined)?.message;
      results.push({ [key]: id, message: typeof message === "string" ? message : `${kind} deleted` });
      if (!json) runtime.print(`Deleted ${kind} ${id}.`);
    } catch (error) {
      failed += 1;
      const sentence = await runtime.sentence(error);
      results.push({ [key]: id, error: errorJson(error, sentence) });
      runtime.warn(sentence);
    }
  }
  if (json) runtime.printJson(results);
  if (failed > 0) throw new ReportedFailure();
}
