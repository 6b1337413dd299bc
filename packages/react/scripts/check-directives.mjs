// Run after the build (by `publint`): every built entry and chunk must start with the
// "use client" directive, or React Server Components would treat the hooks as server code.
// Only comments and other directives may come before it.
import { readdir, readFile } from "node:fs/promises";

const DIRECTIVE_FIRST = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/|(["'])use strict\1;?)*(["'])use client\2/;
const files = (await readdir("dist")).filter((name) => /\.(c?js)$/.test(name));
if (files.length === 0) throw new Error("dist/ has no built files: run the build first");
const missing = [];
for (const name of files) {
  if (!DIRECTIVE_FIRST.test(await readFile(`dist/${name}`, "utf8"))) missing.push(name);
}
if (missing.length > 0) {
  console.error(`"use client" is not the first statement of: ${missing.join(", ")}`);
  process.exit(1);
}
console.log(`"use client" leads all ${files.length} built files`);
