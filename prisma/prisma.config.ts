import path from "node:path";
import { defineConfig } from "prisma/config";

// Offline installs cannot download Prisma's schema-engine binary. `prisma generate` never runs it but
// checks that the path exists, so point it at any existing file unless a real engine is configured.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(import.meta.dirname, "prisma.config.ts");

export default defineConfig({
  schema: path.join(import.meta.dirname, "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/yuelu" },
});
