import "./style.css";
import { readConfig, type TusConfig } from "./config.js";
import { mountTusJs } from "./tus-js-section.js";
import { mountUppy } from "./uppy-section.js";

function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as T;
}

let config: TusConfig | undefined;
try {
  config = readConfig();
} catch (error) {
  const message = byId("config-error");
  message.textContent = error instanceof Error ? error.message : String(error);
  message.hidden = false;
}

if (config) {
  mountUppy(config, byId("uppy-dashboard"), byId("uppy-results"));
  mountTusJs(config, {
    section: byId("tus-js"),
    input: byId("tus-file"),
    progress: byId("tus-progress"),
    status: byId("tus-status"),
    pause: byId("tus-pause"),
    resume: byId("tus-resume"),
    result: byId("tus-result"),
    interrupted: byId("tus-interrupted"),
  });
}
