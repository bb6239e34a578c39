import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { serveWire } from "./embedded-wire.ts";

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Embedded PostgreSQL for installs without a database server: PGlite keeps its files under
 * `dataDir` and speaks the Postgres wire protocol on a loopback port (embedded-wire.ts), so Prisma,
 * the hot-path pool and BullMQ's Postgres backend connect to it exactly as they would to a server.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = path.resolve(dataDir, "pgdata");
  await mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const server = await serveWire(db);
  const url = `postgresql://postgres@127.0.0.1:${server.port}/postgres?sslmode=disable`;
  return {
    url,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}
