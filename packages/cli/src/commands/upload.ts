import { resolve } from "node:path";
import { MAX_FILE_EXPIRES_IN_SECONDS, MIN_FILE_EXPIRES_IN_SECONDS } from "@trove/schema";
import { AbortError, fileSessionStore, type UploadResult } from "@trove/sdk/node";
import type { Command } from "commander";
import { ReportedFailure } from "../cli-errors.js";
import { EXIT } from "../exit-codes.js";
import { formatBytes, formatDuration } from "../format/bytes.js";
import { errorJson } from "../format/error-json.js";
import type { Runtime } from "../runtime.js";
import { barView } from "../upload/bar-view.js";
import { collectFiles, normaliseFolder, type UploadItem } from "../upload/collect-files.js";
import { lineView } from "../upload/line-view.js";
import { resumeWatch } from "../upload/resume-watch.js";
import { uploadSessionsPath } from "../upload/state-dir.js";
import { silentView, type UploadView } from "../upload/upload-view.js";
import { commaList, integerIn, transformString } from "./option-parsers.js";

interface UploadOptions {
  folder?: string;
  expiresIn?: number;
  concurrency: number;
  transform?: string;
  tags?: string[];
  resume: boolean;
  json?: boolean;
}

const DEFAULT_CONCURRENCY = 4;
/** The SDK's default: larger files go up in parts, and multipart start has no transform field. */
const MULTIPART_THRESHOLD = 8 * 1024 * 1024;

export function registerUploadCommand(program: Command, runtime: Runtime): void {
  program
    .command("upload")
    .description("upload files and directories (directories recursively), resuming interrupted uploads")
    .argument("<paths...>", "files and directories to upload")
    .option(
      "--folder <path>",
      "destination folder path, e.g. site/2026 (created as needed; default: the root)",
    )
    .option(
      "--concurrency <n>",
      "files uploaded at once, and parts in flight per large file",
      integerIn(1, 64),
      DEFAULT_CONCURRENCY,
    )
    .option(
      "--transform <t>",
      "transformation applied when stored, e.g. w_800,f_webp (images up to 8 MiB)",
      transformString,
    )
    .option("--tags <a,b>", "tags for every file, comma-separated", commaList)
    .option(
      "--expires-in <seconds>",
      "temporary files: the server deletes each this many seconds after its upload (60 to 31536000)",
      integerIn(MIN_FILE_EXPIRES_IN_SECONDS, MAX_FILE_EXPIRES_IN_SECONDS),
    )
    .option("--no-resume", "do not keep or continue multipart sessions")
    .option("--json", "no progress; print { uploaded, failed, summary } as JSON at the end")
    .addHelpText(
      "after",
      `
Directories keep their own name, like cp -r: \`trove upload photos --folder site\` stores
photos/2024/a.jpg in the folder site/photos/2024.

Files over 8 MiB go up in parts. Their sessions are kept in $TROVE_STATE_DIR/uploads.json
(default ~/.trove/uploads.json): after Ctrl-C or a crash, run the same command again and
parts already stored are not sent again.

Exit code: 0 when every file was uploaded, 1 when any failed, 130 when interrupted.`,
    )
    .action(async (paths: string[], options: UploadOptions) => {
      process.exitCode = await upload(runtime, paths, options);
    });
}

async function upload(runtime: Runtime, paths: string[], options: UploadOptions): Promise<number> {
  const sessionsPath = uploadSessionsPath();
  const baseStore = options.resume ? fileSessionStore(sessionsPath) : undefined;
  const client = await runtime.client();
  const folder = normaliseFolder(options.folder);
  const { items, unreadable } = await collectFiles(paths, folder);

  if (items.length === 0 && unreadable.length === 0) {
    if (options.json) runtime.printJson({ uploaded: [], failed: [], summary: summaryOf(0, 0, 0, 0, 0) });
    else runtime.print("Nothing to upload: the directories given hold no files.");
    return EXIT.ok;
  }

  const view: UploadView = options.json
    ? silentView
    : process.stdout.isTTY
      ? barView(items, process.stdout)
      : lineView(
          (line) => runtime.print(line),
          (line) => runtime.warn(line),
        );

  const started = Date.now();
  const uploaded: { item: UploadItem; result: UploadResult }[] = [];
  const failed: { localPath: string; error: Record<string, unknown> }[] = [];
  const unfinished: UploadItem[] = [];

  for (const { display, reason, code } of unreadable) {
    const sentence = `Error: ${display} ${reason}.`;
    failed.push({ localPath: resolve(display), error: { message: `${display} ${reason}.`, code } });
    view.failed(undefined, sentence);
  }
  const fail = async (item: UploadItem, error: unknown) => {
    const sentence = await runtime.sentence(error);
    failed.push({ localPath: item.path, error: errorJson(error, sentence) });
    view.failed(item, sentence.replace(/^Error: /, `Error: could not upload ${item.display}: `));
  };

  // Ctrl-C (or SIGTERM) once: stop starting files, abort the ones in flight, keep their
  // sessions. Twice: leave at once.
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      if (controller.signal.aborted) {
        unfinished.push(item);
        continue;
      }
      if (options.transform !== undefined && item.size > MULTIPART_THRESHOLD) {
        view.started(item);
        const reason = `--transform applies only to files up to ${formatBytes(MULTIPART_THRESHOLD)} (sent in one request); this one is ${formatBytes(item.size)}`;
        failed.push({ localPath: item.path, error: { message: `${reason}.`, code: "INVALID_ARGUMENT" } });
        view.failed(item, `Error: could not upload ${item.display}: ${reason}.`);
        continue;
      }
      const watch = baseStore ? resumeWatch(baseStore) : undefined;
      let first = true;
      view.started(item);
      try {
        const result = await client.upload(item.path, {
          folder: item.folder,
          tags: options.tags,
          transform: options.transform,
          expiresIn: options.expiresIn,
          concurrency: options.concurrency,
          multipartThreshold: MULTIPART_THRESHOLD,
          sessionStore: watch?.store ?? null,
          signal: controller.signal,
          onProgress: (progress) => {
            if (first && progress.confirmed > 0 && watch?.resumed()) view.resumed(item!, progress.confirmed);
            first = false;
            view.progress(item!, progress);
          },
        });
        uploaded.push({ item, result });
        view.uploaded(item, result);
      } catch (error) {
        if (error instanceof AbortError && controller.signal.aborted) unfinished.push(item);
        else await fail(item, error);
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, worker));
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    view.close();
  }

  const bytes = uploaded.reduce((sum, { result }) => sum + result.size, 0);
  const elapsed = Date.now() - started;
  if (options.json) {
    runtime.printJson({
      uploaded: uploaded.map(({ item, result: { response: _raw, ...result } }) => ({
        local_path: item.path,
        ...result,
      })),
      failed: failed.map(({ localPath, error }) => ({ local_path: localPath, error })),
      ...(unfinished.length > 0 ? { unfinished: unfinished.map((item) => ({ local_path: item.path })) } : {}),
      summary: summaryOf(uploaded.length, failed.length, unfinished.length, bytes, elapsed),
    });
  } else {
    const parts = [`${uploaded.length} uploaded`, `${failed.length} failed`];
    if (unfinished.length > 0) parts.push(`${unfinished.length} unfinished`);
    runtime.print(`${parts.join(", ")}, ${formatBytes(bytes)} in ${formatDuration(elapsed)}.`);
    if (unfinished.length > 0) {
      runtime.warn(
        baseStore
          ? `Interrupted. Run the same command again to finish: large files continue where they stopped (sessions in ${sessionsPath}).`
          : "Interrupted. Run the same command again to upload the rest.",
      );
    }
  }
  if (unfinished.length > 0) return EXIT.interrupted;
  if (failed.length > 0) throw new ReportedFailure();
  return EXIT.ok;
}

function summaryOf(uploaded: number, failed: number, unfinished: number, bytes: number, ms: number) {
  return { uploaded, failed, unfinished, bytes, seconds: Math.round(ms) / 1000 };
}
