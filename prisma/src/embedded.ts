import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Embedded PostgreSQL for installs without a database server: PGlite keeps its files under
 * `dataDir` and speaks the Postgres wire protocol on a loopback port, so Prisma (node-postgres)
 * and BullMQ's Postgres backend connect to it exactly as they would to a real server.
 * The socket server runs one statement at a time and keeps a transaction on its connection,
 * which serialises work but keeps transactions isolated.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const dir = path.resolve(dataDir, "pgdata");
  await mkdir(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 64 });
  await server.start();
  const url = `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
