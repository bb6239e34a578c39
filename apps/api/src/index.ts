export { API_PREFIX, buildApp } from "./app.ts";
export type { AppDeps, SmsSender } from "./deps.ts";
export { apiLogger, apiLoggerOptions } from "./lib/request-log.ts";
export { createApiServer } from "./server.ts";
