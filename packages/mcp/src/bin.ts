#!/usr/bin/env node
import { runCommand } from "./run-command.js";

process.exitCode = await runCommand(process.argv.slice(2), process.env);
