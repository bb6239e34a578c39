export { Prisma, TimeCardSource } from "../generated/client.ts";
export type * from "../generated/models.ts";
export { createDb, type Db } from "./client.ts";
export { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded.ts";
export { applyMigrations } from "./migrate.ts";
export { purgeAccount } from "./ops/purge-account.ts";
export {
  type ChargeInput,
  ChargeRefused,
  chargeTranscription,
  refundTranscriptionTask,
} from "./ops/transcription-charge.ts";
export { seedCatalogue } from "./seed/index.ts";
