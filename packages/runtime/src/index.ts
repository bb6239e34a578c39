export { type Config, ConfigError, loadConfig } from "./config.ts";
export { type DatabaseHandle, openDatabase } from "./database.ts";
export { type FileStore, localFileStore } from "./file-store.ts";
export { HotSql } from "./hot-sql.ts";
export { createQueueBackend, type QueueBackend, QueueName, queuePrefix } from "./queues.ts";
export { cookieSecret } from "./secrets.ts";
