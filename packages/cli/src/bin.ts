#!/usr/bin/env node
import { run } from "./run.js";

const code = await run(process.argv.slice(2));
// Leave once stdout and stderr are flushed (pipes are asynchronous on some platforms), without
// waiting for idle keep-alive sockets.
process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
