import { createClient, type NodeUploadInput, type TroveClient } from "@trove/sdk/node";
import { UsageError } from "./cli-errors.js";
import { type CliConfig, defaultConfigPath, loadConfig } from "./config/load-config.js";
import { errorSentence } from "./format/error-sentence.js";
import { aboutOf, type ErrorAbout } from "./format/error-subject.js";

export type Client = TroveClient<NodeUploadInput>;

/** What every command gets: the configuration (read on first use), the client, and output. */
export class Runtime {
  readonly #configFile: () => string | undefined;
  #config: Promise<CliConfig> | undefined;

  constructor(configFile: () => string | undefined) {
    this.#configFile = configFile;
  }

  config(): Promise<CliConfig> {
    this.#config ??= loadConfig(this.#configFile());
    return this.#config;
  }

  /** A client for the configured server; a missing API key is a usage error. */
  async client(): Promise<Client> {
    const config = await this.config();
    if (!config.apiKey) {
      const file = config.file ?? defaultConfigPath();
      throw new UsageError(`no API key. Set TROVE_API_KEY, or put "apiKey" in ${file}.`);
    }
    return createClient({
      apiKey: config.apiKey,
      baseUrl: config.baseUrl,
      // Unset: the reference server's own delivery host (`{base}/assets`, TROVE_ASSETS_PREFIX's default).
      assetsUrl: config.assetsUrl ?? `${config.baseUrl.replace(/(?<!\/)\/+$/, "")}/assets`,
    });
  }

  /** One sentence for `error`, naming the server and the key type where that helps. */
  async sentence(error: unknown, about?: ErrorAbout): Promise<string> {
    const config = await this.config().catch(() => undefined);
    return errorSentence(error, {
      about: about ?? aboutOf(error),
      baseUrl: config?.baseUrl,
      apiKey: config?.apiKey,
    });
  }

  print(text = ""): void {
    process.stdout.write(`${text}\n`);
  }

  /** The API's own objects, for scripts: pretty-printed JSON. */
  printJson(value: unknown): void {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  warn(text: string): void {
    process.stderr.write(`${text}\n`);
  }
}
