export { Prisma, TimeCardSource } from "../generated/client.ts";
export type * from "../generated/models.ts";
export { createDb, type Db, likeLiteral } from "./client.ts";
export { applyMigrations } from "./migrate.ts";
export { SEED_MARK_QUERY, seedCatalogue, seedIsCurrent } from "./seed/index.ts";
