import { applyMigrations } from "../migrate.ts";
import { requireDatabaseUrl } from "./database-url.ts";

const ran = await applyMigrations(requireDatabaseUrl());
console.log(ran.length ? `applied: ${ran.join(", ")}` : "database is up to date");
