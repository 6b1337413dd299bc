import { Command } from "commander";
import { registerFileCommands } from "./commands/files.js";
import { registerFolderCommands } from "./commands/folders.js";
import { registerSourceCommands } from "./commands/sources.js";
import { registerUploadCommand } from "./commands/upload.js";
import { registerUrlCommand } from "./commands/url.js";
import type { Runtime } from "./runtime.js";
import { VERSION } from "./version.js";

const CONFIGURATION_HELP = `
Configuration (each setting from the first place that has it):
  1. environment   TROVE_API_KEY, TROVE_BASE_URL, TROVE_ASSETS_URL
  2. config file   --config <file> (before the command), else $TROVE_CONFIG, else
                   ~/.config/trove/config.json: { "apiKey", "baseUrl", "assetsUrl" }
  3. defaults      base URL http://127.0.0.1:3000

Exit codes: 0 done, 1 failed (API error, a file not uploaded), 2 usage or configuration error,
130 interrupted.

Examples:
  trove upload ./photos --folder site --tags summer
  trove ls --folder-no k3j2 --sort size_desc --limit 50
  trove ls --all --json | jq -r '.files[].url'
  trove url 1001 so_5,eo_15,w_400
  trove folders create campaign
  trove sources create --type s3 --name media --config region=eu-west-1 --config bucket=media`;

/**
 * The `trove` command tree. Global options come before the command (`trove --config f.json ls`),
 * like docker's: `sources create|update` have a `--config key=value` of their own.
 */
export function buildProgram(runtime: Runtime): Command {
  const program = new Command("trove")
    .description("Upload and manage media in a Trove workspace")
    .version(VERSION, "-v, --version", "print the version")
    .option("--config <file>", "read settings from this JSON file (give it before the command)")
    .enablePositionalOptions()
    .helpCommand(false)
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    // Commander's own messages ("error: unknown option '--x'") in the same style as ours.
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, "Error: ")) })
    .addHelpText("after", CONFIGURATION_HELP);

  registerUploadCommand(program, runtime);
  registerFileCommands(program, runtime);
  registerUrlCommand(program, runtime);
  registerFolderCommands(program, runtime);
  registerSourceCommands(program, runtime);
  return program;
}
