export { API_PREFIX, buildApp } from "./app.ts";
export type { AppDeps, SmsSender } from "./deps.ts";
export { createApiServer } from "./server.ts";
