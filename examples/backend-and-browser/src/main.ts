import { createBackend } from "./backend.js";
import { ConfigError, configFromEnv } from "./config.js";

try {
  const config = configFromEnv();
  const app = await createBackend(config, { logger: true });
  const address = await app.listen({ host: config.host, port: config.port });
  console.log(`\n  Open ${address} — uploads go to ${config.baseUrl} with one upload token each.\n`);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`${error.message}\nSee README.md: TROVE_PRIVATE_KEY comes from the banner of \`npm start\`.`);
  process.exitCode = 1;
}
