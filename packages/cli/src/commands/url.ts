import type { Command } from "commander";
import { UsageError } from "../cli-errors.js";
import { about } from "../format/error-subject.js";
import type { Runtime } from "../runtime.js";
import { deliveryTransformString, streamingHeights } from "./option-parsers.js";

interface UrlOptions {
  streaming?: number[];
}

/**
 * `trove url <fileNo> [transform]`: a file's delivery URL, built by the SDK's client.url (so the
 * same checks and spelling as an app's), with an image or a video transform; `--streaming` the
 * HLS master playlist of a video (the server packages it on the first request: 202 until ready).
 */
export function registerUrlCommand(program: Command, runtime: Runtime): void {
  program
    .command("url")
    .description("print a file's delivery URL, optionally with an image or video transform")
    .argument("<fileNo>", "the file's number (the FILE NO column of `trove ls`)")
    .argument(
      "[transform]",
      "e.g. w_800,f_webp; for a video so_5,eo_15,w_400, thumb_ar or f_gif,d_5,w_400",
      deliveryTransformString,
    )
    .option(
      "--streaming <heights>",
      "the HLS playlist URL of a video with these rendition heights, e.g. 240,360,720 (202 until the server has packaged it)",
      streamingHeights,
    )
    .action(async (fileNo: string, transform: string | undefined, options: UrlOptions) => {
      if (transform !== undefined && options.streaming !== undefined) {
        throw new UsageError("give a transform or --streaming, not both.");
      }
      const client = await runtime.client();
      const file = await about(`file ${fileNo}`, () => client.files.get(fileNo));
      runtime.print(
        options.streaming === undefined
          ? client.url(file, transform)
          : client.streamingUrl(file, options.streaming),
      );
    });
}
