/**
 * Runs renderImage off the main thread where the browser has `Worker` and `OffscreenCanvas`: an
 * inline worker made from a Blob URL of renderImage's own source, so it works unchanged in any
 * bundle (Vite, esbuild, webpack: there is no worker file to emit or resolve). Under a Content
 * Security Policy the page needs `worker-src blob:` (or, without worker-src, `script-src blob:`);
 * when the policy refuses the worker, or it fails for any other reason, the same function runs on
 * the main thread instead, so the result is the same, only slower to paint around.
 */
import { type RenderPlan, renderImage } from "./render-image.js";

type WorkerAnswer = { blob: Blob | null } | { error: string };

export async function runRender(source: Blob, plan: RenderPlan): Promise<Blob | null> {
  if (typeof Worker === "function" && typeof OffscreenCanvas === "function") {
    const answer = await inWorker(source, plan).catch(() => undefined);
    if (answer && "blob" in answer) return answer.blob;
  }
  return renderImage(source, plan);
}

let workerUrl: string | undefined;

function inWorker(source: Blob, plan: RenderPlan): Promise<WorkerAnswer> {
  workerUrl ??= URL.createObjectURL(
    new Blob(
      [
        `const renderImage = ${renderImage.toString()};\n`,
        "self.onmessage = (event) => renderImage(event.data.source, event.data.plan)",
        ".then((blob) => self.postMessage({ blob }), (error) => self.postMessage({ error: String(error) }));",
      ],
      { type: "text/javascript" },
    ),
  );
  return new Promise<WorkerAnswer>((resolve, reject) => {
    const worker = new Worker(workerUrl as string);
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      worker.terminate();
      resolve(event.data);
    };
    // A CSP refusal or a script error: the caller falls back to the main thread.
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new Error(event.message || "the image worker failed"));
    };
    worker.postMessage({ source, plan });
  });
}
