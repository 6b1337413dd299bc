/**
 * Baseline for bench 11: a bare `node:http` handler around a bare sharp pipeline, the shape of
 * imgproxy's benchmark. `GET /{file}/{width}/{height}/{format}/{quality}` reads `{directory}/{file}`,
 * fits it inside width×height (`fit: "inside"`) and encodes it. No routing library, auth,
 * database, limits, caching or content checks.
 *
 *   node --import tsx bare-sharp-render.ts <directory>    prints "listening <port>"
 */
import { createServer } from "node:http";
import { join } from "node:path";
import sharp from "sharp";

const directory = process.argv[2];
if (!directory) throw new Error("usage: bare-sharp-render.ts <directory>");

const FORMATS = new Set(["jpeg", "webp", "avif"]);

const server = createServer((request, response) => {
  const [file = "", width, height, format = "", quality] = (request.url ?? "").slice(1).split("/");
  if (!/^[\w.-]+$/.test(file) || !FORMATS.has(format)) {
    response.writeHead(400).end();
    return;
  }
  sharp(join(directory, file))
    .resize({ width: Number(width), height: Number(height), fit: "inside" })
    .toFormat(format as "jpeg" | "webp" | "avif", { quality: Number(quality) })
    .toBuffer()
    .then(
      (body) => {
        response.writeHead(200, { "content-type": `image/${format}`, "content-length": body.length });
        response.end(body);
      },
      () => response.writeHead(500).end(),
    );
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
});
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
});
