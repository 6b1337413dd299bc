import { SOURCE_TYPES, type Source, type UpdateSourceBody } from "@trove/schema";
import type { ListSourcesQuery } from "@trove/sdk/node";
import { type Command, Option } from "commander";
import { UsageError } from "../cli-errors.js";
import { formatTimestamp } from "../format/bytes.js";
import { about } from "../format/error-subject.js";
import { keyValues, table } from "../format/table.js";
import type { Runtime } from "../runtime.js";
import { confirm } from "./confirm.js";
import { deleteEach } from "./delete-each.js";
import { collect, integerIn } from "./option-parsers.js";
import { sourceConfiguration } from "./source-configuration.js";
import { sourceWorkspaceNo } from "./source-workspace.js";

const CONFIG_HELP =
  "a configuration field, repeatable; key=@file reads the value from a file (@- from stdin); true/false for boolean fields";

function sourceDetails(source: Source): string {
  const configuration = Object.entries(source.configuration as Record<string, unknown>).map(
    ([key, value]) =>
      [`  ${key}`, typeof value === "string" ? value : JSON.stringify(value)] as [string, string],
  );
  return keyValues([
    ["ID", source.id],
    ["Name", source.name],
    ["Type", source.type],
    ["Active", source.is_active ? "yes" : "no"],
    ["Created", formatTimestamp(source.created_at)],
    ["Updated", formatTimestamp(source.updated_at)],
    ["Configuration", configuration.length === 0 ? "(empty)" : ""],
    ...configuration,
  ]);
}

function sourceTable(sources: Source[]): string {
  return table(
    ["id", "name", "type", "active", "created", "updated"],
    sources.map((source) => [
      source.id,
      source.name,
      source.type,
      source.is_active ? "yes" : "no",
      formatTimestamp(source.created_at),
      formatTimestamp(source.updated_at),
    ]),
  );
}

interface WriteOptions {
  type?: (typeof SOURCE_TYPES)[number];
  name?: string;
  config?: string[];
  configJson?: string;
  json?: boolean;
}

interface UpdateOptions extends WriteOptions {
  active?: boolean;
  inactive?: boolean;
}

export function registerSourceCommands(program: Command, runtime: Runtime): void {
  const sources = program
    .command("sources")
    .description("list, show, create, update and delete sources (external origins)")
    .helpCommand(false);

  sources
    .command("ls", { isDefault: true })
    .description("list sources (the default: `trove sources` alone lists)")
    .addOption(new Option("--type <type>", "only sources of this type").choices(SOURCE_TYPES))
    .option("--search <text>", "name contains this text (case-insensitive)")
    .option("--limit <n>", "sources per page, 1 to 100 (default 10; 100 with --all)", integerIn(1, 100))
    .option("--page <n>", "page to show (default 1)", integerIn(1))
    .option("--all", "every page, not just one")
    .option("--json", "print the API's objects as JSON: { sources, meta } (with --all: { sources })")
    .action(
      async (options: {
        type?: (typeof SOURCE_TYPES)[number];
        search?: string;
        limit?: number;
        page?: number;
        all?: boolean;
        json?: boolean;
      }) => {
        const client = await runtime.client();
        const query: ListSourcesQuery = {
          type: options.type,
          search: options.search,
          limit: options.limit,
          page: options.page,
        };
        if (options.all) {
          const all: Source[] = [];
          for await (const source of client.sources.listAll({ ...query, limit: options.limit ?? 100 }))
            all.push(source);
          if (options.json) return runtime.printJson({ sources: all });
          if (all.length === 0) return runtime.print("No sources.");
          runtime.print(sourceTable(all));
          return;
        }
        const page = await client.sources.list(query);
        if (options.json) return runtime.printJson(page);
        const { meta } = page;
        if (page.sources.length === 0) {
          return runtime.print(
            meta.total === 0 ? "No sources." : `No sources on page ${meta.page} (${meta.total} in all).`,
          );
        }
        runtime.print(sourceTable(page.sources));
        if (meta.hasMore || meta.page > 1) {
          const pages = Math.max(1, Math.ceil(meta.total / meta.limit));
          const next = meta.hasMore ? ` Next: --page ${meta.page + 1}, or --all.` : "";
          runtime.print(`\nPage ${meta.page} of ${pages} (${meta.total} sources).${next}`);
        }
      },
    );

  sources
    .command("get")
    .description("show one source (secrets are masked by the server)")
    .argument("<id>", "the source's id (the ID column of `trove sources ls`)")
    .option("--json", "print the API's object as JSON")
    .action(async (id: string, options: { json?: boolean }) => {
      const client = await runtime.client();
      const source = await about(`source ${id}`, () => client.sources.get(id));
      if (options.json) return runtime.printJson(source);
      runtime.print(sourceDetails(source));
    });

  sources
    .command("create")
    .description("create a source; its configuration is checked against its type")
    .addOption(new Option("--type <type>", "the source's type").choices(SOURCE_TYPES).makeOptionMandatory())
    .requiredOption("--name <name>", "unique in the workspace: letters, digits, _ and -")
    .option("--config <key=value>", CONFIG_HELP, collect)
    .option("--config-json <json>", "the configuration as a JSON object (--config pairs are applied on top)")
    .option("--json", "print the API's object as JSON")
    .addHelpText(
      "after",
      `
Configuration by type:
  s3            region, bucket (required); access_key, secret_key
  azure         connection_string, container_name (required)
  google_cloud  service_account_json, bucket_name (required)
  image_source  base_url (required, no trailing /); canonical_header; forward_header (true/false)

Example:
  trove sources create --type s3 --name media --config region=eu-west-1 --config bucket=media \\
    --config access_key=AKIA... --config secret_key=@secret.txt`,
    )
    .action(async (options: WriteOptions) => {
      const configuration = sourceConfiguration(options.config, options.configJson) ?? {};
      const client = await runtime.client();
      const source = await about({ subject: `source ${options.name}`, action: "create" }, () =>
        client.sources.create({ type: options.type!, name: options.name!, configuration }),
      );
      if (options.json) return runtime.printJson(source);
      runtime.print(`Created source ${source.name} (${source.id}).`);
      runtime.print(sourceDetails(source));
    });

  sources
    .command("update")
    .description("rename, deactivate or reactivate a source, and/or change configuration fields (merged)")
    .argument("<id>", "the source's id")
    .option("--name <name>", "a new name: letters, digits, _ and - (the old name's URLs redirect to the new)")
    .addOption(new Option("--active", "reactivate: its delivery URLs serve again").conflicts("inactive"))
    .addOption(new Option("--inactive", "deactivate: its delivery URLs answer 404").conflicts("active"))
    .option("--config <key=value>", CONFIG_HELP, collect)
    .option(
      "--config-json <json>",
      "configuration fields as a JSON object (--config pairs are applied on top)",
    )
    .option("--json", "print the API's object as JSON")
    .addHelpText(
      "after",
      `
Only the fields given change; the others are kept. A secret sent back masked (********, as
\`trove sources get\` shows it) keeps the stored secret. A source's type cannot be changed.
After a rename the old name is kept as an alias: its URLs redirect to the new name, and no other
source can take it.`,
    )
    .action(async (id: string, options: UpdateOptions) => {
      const body = updateBody(options);
      const client = await runtime.client();
      const source = await about({ subject: `source ${id}`, action: "update" }, () =>
        client.sources.update(id, body),
      );
      if (options.json) return runtime.printJson(source);
      runtime.print(`Updated source ${source.name} (${source.id}).`);
      runtime.print(sourceDetails(source));
    });

  sources
    .command("rm")
    .description("delete sources permanently")
    .argument("<id...>", "the ids of the sources to delete")
    .option("-y, --yes", "do not ask for confirmation (needed when not in a terminal)")
    .option("--json", "print [{ id, message } | { id, error }] as JSON")
    .action(async (ids: string[], options: { yes?: boolean; json?: boolean }) => {
      const client = await runtime.client();
      const what = ids.length === 1 ? `source ${ids[0]}` : `${ids.length} sources`;
      if (!(await confirm(`delete ${what} permanently`, options.yes)))
        return runtime.print("Nothing deleted.");
      await deleteEach(runtime, options.json, ids, "source", (id) => client.sources.delete(id));
    });

  sources
    .command("url")
    .description("print the delivery URL of an object in a source's origin")
    .argument("<name>", "the source's name (its delivery origin)")
    .argument("<path>", "the object's path inside the origin, e.g. products/shoe.jpg")
    .option("--transform <transform>", "a transformation, e.g. w_800,h_600,c_fill")
    .option(
      "--workspace <workspace_no>",
      "the workspace's workspace_no (default: the API key's workspace, asked of the server)",
    )
    .action(async (name: string, path: string, options: { transform?: string; workspace?: string }) => {
      const client = await runtime.client();
      const workspace = options.workspace ?? (await sourceWorkspaceNo(runtime, client, name));
      runtime.print(client.url({ origin: name, path, workspace_no: workspace }, options.transform));
    });
}

/** The PATCH body of `sources update`: exactly the fields the server accepts, only those given. */
function updateBody(options: UpdateOptions): UpdateSourceBody {
  const configuration = sourceConfiguration(options.config, options.configJson);
  const isActive = options.active ? true : options.inactive ? false : undefined;
  if (options.name === undefined && configuration === undefined && isActive === undefined) {
    throw new UsageError("nothing to update: give --name, --active, --inactive, --config or --config-json.");
  }
  return {
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(isActive !== undefined ? { is_active: isActive } : {}),
    ...(configuration !== undefined ? { configuration } : {}),
  };
}
