// Writes dist/openapi.json from the built package, so the file and the exported document agree.
import { writeFile } from "node:fs/promises";
import { openApiDocument } from "../dist/index.js";

const target = new URL("../dist/openapi.json", import.meta.url);
await writeFile(target, `${JSON.stringify(openApiDocument, null, 2)}\n`);
const paths = Object.keys(openApiDocument.paths ?? {}).length;
console.log(`openapi: wrote dist/openapi.json (${paths} paths)`);
