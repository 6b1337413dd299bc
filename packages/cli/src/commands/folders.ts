import { FOLDER_SORTS } from "@trove/schema";
import { type Command, Option } from "commander";
import { formatBytes, formatTimestamp } from "../format/bytes.js";
import { about } from "../format/error-subject.js";
import { table } from "../format/table.js";
import type { Runtime } from "../runtime.js";
import { confirm } from "./confirm.js";
import { deleteEach } from "./delete-each.js";

export function registerFolderCommands(program: Command, runtime: Runtime): void {
  const folders = program
    .command("folders")
    .description("list, create, rename and delete folders")
    .helpCommand(false);

  folders
    .command("ls")
    .description("list the folders at the root, or inside --parent")
    .option("--parent <folderNo>", "list the direct children of this folder")
    .option("--name <text>", "name contains this text (case-insensitive)")
    .addOption(new Option("--sort <sort>", "order").choices(FOLDER_SORTS))
    .option("--json", "print the API's objects as JSON: { folders }")
    .action(
      async (options: {
        parent?: string;
        name?: string;
        sort?: (typeof FOLDER_SORTS)[number];
        json?: boolean;
      }) => {
        const client = await runtime.client();
        const response = await about(options.parent ? `folder ${options.parent}` : "the folder list", () =>
          client.folders.list({ parent_folder_no: options.parent, name: options.name, sort: options.sort }),
        );
        if (options.json) return runtime.printJson(response);
        if (response.folders.length === 0) return runtime.print("No folders.");
        runtime.print(
          table(
            ["folder no", "name", "items", "size", "created"],
            response.folders.map((folder) => [
              folder.folder_no,
              folder.name,
              folder.total_items,
              formatBytes(folder.total_size),
              formatTimestamp(folder.created_at),
            ]),
          ),
        );
      },
    );

  folders
    .command("create")
    .description("create a folder at the root, or inside --parent")
    .argument("<name>", "the folder's name (no slashes)")
    .option("--parent <folderNo>", "create it inside this folder")
    .option("--json", "print the API's answer as JSON: { name, folder_no }")
    .action(async (name: string, options: { parent?: string; json?: boolean }) => {
      const client = await runtime.client();
      const what = options.parent
        ? { subject: `folder ${options.parent}`, action: `create folder ${name} in` }
        : { subject: `folder ${name}`, action: "create" };
      const created = await about(what, () =>
        client.folders.create({ name, ...(options.parent ? { parent_folder_no: options.parent } : {}) }),
      );
      if (options.json) return runtime.printJson(created);
      runtime.print(`Created folder ${created.name} (${created.folder_no}).`);
    });

  folders
    .command("rename")
    .description("rename a folder")
    .argument("<folderNo>", "the folder's number (the FOLDER NO column of `trove folders ls`)")
    .argument("<newName>", "the new name (no slashes)")
    .option("--json", "print the API's folder record as JSON")
    .action(async (folderNo: string, newName: string, options: { json?: boolean }) => {
      const client = await runtime.client();
      const record = await about({ subject: `folder ${folderNo}`, action: "rename" }, () =>
        client.folders.rename(folderNo, newName),
      );
      if (options.json) return runtime.printJson(record);
      runtime.print(`Renamed folder ${record.folder_no} to ${record.name} (path ${record.path}).`);
    });

  folders
    .command("rm")
    .description("delete empty folders permanently")
    .argument("<folderNo...>", "the numbers of the folders to delete")
    .option("-y, --yes", "do not ask for confirmation (needed when not in a terminal)")
    .option("--json", "print [{ folder_no, message } | { folder_no, error }] as JSON")
    .action(async (folderNos: string[], options: { yes?: boolean; json?: boolean }) => {
      const client = await runtime.client();
      const what = folderNos.length === 1 ? `folder ${folderNos[0]}` : `${folderNos.length} folders`;
      if (!(await confirm(`delete ${what} permanently`, options.yes)))
        return runtime.print("Nothing deleted.");
      await deleteEach(
        runtime,
        options.json,
        folderNos,
        "folder",
        (folderNo) => client.folders.delete(folderNo),
        (folderNo) => `Only empty folders can be deleted: see \`trove ls --folder-no ${folderNo}\`.`,
      );
    });
}
