import { FILE_SORTS } from "@trove/schema";
import type { FileListItem, ListFilesQuery } from "@trove/sdk/node";
import { type Command, Option } from "commander";
import { formatBytes, formatTimestamp } from "../format/bytes.js";
import { about } from "../format/error-subject.js";
import { keyValues, table } from "../format/table.js";
import type { Runtime } from "../runtime.js";
import { confirm } from "./confirm.js";
import { deleteEach } from "./delete-each.js";
import { integerIn } from "./option-parsers.js";

interface ListOptions {
  folderNo?: string;
  name?: string;
  path?: string;
  tags?: string;
  sort?: (typeof FILE_SORTS)[number];
  limit?: number;
  page?: number;
  all?: boolean;
  json?: boolean;
}

/** The row as the API sent it: without the SDK's `thumbnail` alias of `thumbanil`. */
function wireRow({ thumbnail: _alias, ...row }: FileListItem) {
  return row;
}

function dimensions(width: number | null | undefined, height: number | null | undefined): string {
  return width && height ? `${width}x${height}` : "";
}

function fileTable(files: FileListItem[]): string {
  return table(
    ["file no", "name", "size", "format", "dimensions", "created", "path"],
    files.map((file) => [
      file.file_no,
      file.name,
      formatBytes(file.file_size),
      file.format,
      dimensions(file.width, file.height),
      formatTimestamp(file.created_at),
      file.path,
    ]),
  );
}

export function registerFileCommands(program: Command, runtime: Runtime): void {
  program
    .command("ls")
    .description("list files, newest first unless --sort says otherwise")
    .option("--folder-no <folderNo>", "only files in this folder (see `trove folders ls`)")
    .option("--name <text>", "name contains this text (case-insensitive)")
    .option("--path <path>", "only files under this path")
    .option("--tags <a,b>", "only files with these tags (comma-separated)")
    .addOption(new Option("--sort <sort>", "order").choices(FILE_SORTS))
    .option("--limit <n>", "files per page, 1 to 100 (default 20; 100 with --all)", integerIn(1, 100))
    .option("--page <n>", "page to show (default 1)", integerIn(1))
    .option("--all", "every page, not just one")
    .option("--json", "print the API's objects as JSON: { files, meta } (with --all: { files })")
    .action(async (options: ListOptions) => {
      const client = await runtime.client();
      const query: ListFilesQuery = {
        folder_no: options.folderNo,
        name: options.name,
        path: options.path,
        tags: options.tags,
        sort: options.sort,
        limit: options.limit,
        page: options.page,
      };
      if (options.all) {
        const files: FileListItem[] = [];
        for await (const file of client.files.listAll({ ...query, limit: options.limit ?? 100 }))
          files.push(file);
        if (options.json) return runtime.printJson({ files: files.map(wireRow) });
        if (files.length === 0) return runtime.print("No files.");
        runtime.print(fileTable(files));
        runtime.print(`\n${files.length} ${files.length === 1 ? "file" : "files"}.`);
        return;
      }
      const page = await client.files.list(query);
      if (options.json) return runtime.printJson({ files: page.files.map(wireRow), meta: page.meta });
      const { meta } = page;
      if (page.files.length === 0) {
        return runtime.print(
          meta.total === 0 ? "No files." : `No files on page ${meta.page} (${meta.total} in all).`,
        );
      }
      runtime.print(fileTable(page.files));
      const pages = Math.max(1, Math.ceil(meta.total / meta.limit));
      const next = meta.hasNext ? ` Next: --page ${meta.page + 1}, or --all.` : "";
      runtime.print(
        `\nPage ${meta.page} of ${pages} (${meta.total} ${meta.total === 1 ? "file" : "files"}).${next}`,
      );
    });

  program
    .command("info")
    .description("show one file's details")
    .argument("<fileNo>", "the file's number (the FILE NO column of `trove ls`)")
    .option("--json", "print the API's object as JSON")
    .action(async (fileNo: string, options: { json?: boolean }) => {
      const client = await runtime.client();
      const file = await about(`file ${fileNo}`, () => client.files.get(fileNo));
      if (options.json) return runtime.printJson(file);
      runtime.print(
        keyValues([
          ["File no", file.file_no],
          ["Name", file.name],
          ["Path", file.path],
          ["URL", file.url],
          ["Format", file.format],
          ["Size", `${formatBytes(file.size)} (${file.size} bytes)`],
          ["Dimensions", dimensions(file.dimensions.width, file.dimensions.height)],
          ["Folder", file.folder ? `${file.folder.path} (${file.folder.folder_no})` : "(root)"],
          ["Workspace", `${file.workspace.name} (${file.workspace.workspace_no})`],
          ["Uploaded by", file.uploaded_by],
          ["Uploaded at", formatTimestamp(file.uploaded_at)],
          ["ID", file.id],
        ]),
      );
    });

  program
    .command("mv")
    .description("rename a file (the server keeps its extension)")
    .argument("<fileNo>", "the file's number")
    .argument("<newName>", "the new base name, without extension or slashes")
    .option("--json", "print the API's file record as JSON")
    .action(async (fileNo: string, newName: string, options: { json?: boolean }) => {
      const client = await runtime.client();
      const record = await about({ subject: `file ${fileNo}`, action: "rename" }, () =>
        client.files.rename(fileNo, newName),
      );
      if (options.json) return runtime.printJson(record);
      runtime.print(`Renamed file ${record.file_no} to ${record.name}.`);
    });

  program
    .command("rm")
    .description("delete files permanently, from storage and database")
    .argument("<fileNo...>", "the numbers of the files to delete")
    .option("-y, --yes", "do not ask for confirmation (needed when not in a terminal)")
    .option("--json", "print [{ file_no, message } | { file_no, error }] as JSON")
    .action(async (fileNos: string[], options: { yes?: boolean; json?: boolean }) => {
      const client = await runtime.client();
      const what = fileNos.length === 1 ? `file ${fileNos[0]}` : `${fileNos.length} files`;
      if (!(await confirm(`delete ${what} permanently`, options.yes)))
        return runtime.print("Nothing deleted.");
      await deleteEach(runtime, options.json, fileNos, "file", (fileNo) => client.files.delete(fileNo));
    });
}
