import { loadConfig, openPlatform, startBackupSchedule } from "@yuelu/runtime";
import closeWithGrace from "close-with-grace";
import { apiLogger } from "./lib/request-log.ts";
import { startDraining } from "./modules/system/health.ts";
import { createApiServer } from "./server.ts";

/**
 * The API alone (docker compose's `api` service, API replicas): jobs are left to `apps/worker`
 * processes. `npm start` runs the launcher instead, which adds the workers to this process on a
 * single machine.
 */
const config = loadConfig();
const logger = apiLogger(config.LOG_LEVEL);
const platform = await openPlatform(config, logger);
const app = await createApiServer(platform, logger);

// BACKUP_CRON: every API process runs the timer; an advisory lock lets one of them back up.
const backups = startBackupSchedule(config, logger.child({ service: "backup" }));

// The grace covers the drain below plus the requests still in flight when the port closes.
closeWithGrace({ delay: (config.DRAIN_SECONDS + 20) * 1000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "server crashed");
  app.log.info({ signal }, "shutting down: draining requests");
  // A rolling restart (README): /readyz says "draining" while requests are still served, so the
  // balancer moves new ones to the other replicas before this one stops listening.
  if (!err && config.DRAIN_SECONDS > 0) {
    startDraining();
    await new Promise((resolve) => setTimeout(resolve, config.DRAIN_SECONDS * 1000));
  }
  await backups?.stop();
  await app.close();
  await platform.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
if (platform.database.embedded) {
  app.log.warn("embedded database without workers: start the API with `npm start` so transcriptions run");
}
app.log.info(`Yuelu API ready on ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`}`);
