// The operator console's API (docs/admin.md): one file per area, all under /voice_yuelu/admin.
export * from "./common.ts";
