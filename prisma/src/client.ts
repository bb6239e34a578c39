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

/**
 * A user's text for Prisma's `contains` / `startsWith` / `endsWith` (and `mode: "insensitive"`
 * equality): Prisma writes them as LIKE patterns and does not escape the pattern characters
 * (prisma/prisma#19506), so `%` or `_` in the text would match anything. Escaped, it matches literally.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
