import { loadConfig, openPlatform } from "@yuelu/runtime";
import closeWithGrace from "close-with-grace";
import pino from "pino";
import { createApiServer } from "./server.ts";

/**
 * The API alone (docker compose's `api` service, API replicas): jobs are left to `apps/worker`
 * processes. `npm start` runs the launcher instead, which adds the workers to this process on a
 * single machine.
 */
const config = loadConfig();
const logger = pino({
  level: config.LOG_LEVEL,
  redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
});
const platform = await openPlatform(config, logger);
const app = await createApiServer(platform, logger);

closeWithGrace({ delay: 20_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "server crashed");
  app.log.info({ signal }, "shutting down: draining requests");
  await app.close();
  await platform.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
if (platform.database.embedded) {
  app.log.warn("embedded database without workers: start the API with `npm start` so transcriptions run");
}
app.log.info(`Yuelu API ready on ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`}`);
