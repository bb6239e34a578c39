import { applyMigrations, OfflineMigrationError } from "../migrate.ts";
import { requireDatabaseUrl } from "./database-url.ts";

// Migrations that cannot run online are refused here unless the operator says the nodes are stopped
// (`npm run db:migrate -- --offline` or MIGRATE_OFFLINE=true); a fresh database is never refused.
const offline = process.argv.includes("--offline") || /^(1|true|yes)$/i.test(process.env.MIGRATE_OFFLINE ?? "");
try {
  const ran = await applyMigrations(requireDatabaseUrl(), undefined, { offline: offline ? "warn" : "refuse" });
  console.log(ran.length ? `applied: ${ran.join(", ")}` : "database is up to date");
} catch (error) {
  if (!(error instanceof OfflineMigrationError)) throw error;
  console.error("nothing applied: run again with --offline (or MIGRATE_OFFLINE=true) once the nodes are stopped");
  process.exitCode = 2;
}
