// The operator console's API (docs/admin.md): one file per area, all under /voice_yuelu/admin.

export * from "./catalogue.ts";
export * from "./common.ts";
export * from "./content.ts";
export * from "./gifts.ts";
export * from "./messages.ts";
export * from "./orders.ts";
export * from "./system.ts";
export * from "./users.ts";
