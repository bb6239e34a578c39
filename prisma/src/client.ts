import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../generated/client.ts";

export type Db = InstanceType<typeof PrismaClient>;

/**
 * One Prisma client over node-postgres. The same code serves an external PostgreSQL and the
 * embedded PGlite (reached over its wire-protocol socket), so there is a single data path.
 */
export function createDb(databaseUrl: string, options: { poolSize?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.poolSize ?? 10 });
  return new PrismaClient({ adapter });
}
