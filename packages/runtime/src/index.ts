export { loadConfig, ConfigError, type Config } from "./config.ts";
export { openDatabase, type DatabaseHandle } from "./database.ts";
export { createQueueBackend, QueueName, type QueueBackend } from "./queues.ts";
export { cookieSecret } from "./secrets.ts";
