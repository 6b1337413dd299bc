// The real trove-server in a child process, as the e2e suites start it (one helper, one way).
export { type ServerProcess, startServerProcess } from "../../../../e2e/support/server-process.js";
