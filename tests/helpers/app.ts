import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { createDb, type Db } from "@yuelu/db";
import { type DomainContext, systemClock } from "@yuelu/domain";
import {
  type Config,
  createQueueBackend,
  EventBus,
  type FileStore,
  HotSql,
  loadConfig,
  openFileStore,
  type QueueBackend,
  redisTransport,
} from "@yuelu/runtime";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { Redis } from "ioredis";
import supertest from "supertest";
import { inject } from "vitest";
import { buildApp } from "../../apps/api/src/app.ts";
import type { SmsSender } from "../../apps/api/src/deps.ts";
import { type Limiter, memoryLimiter, redisLimiter } from "../../apps/api/src/lib/limiter.ts";
import { adminQuery, withDatabase } from "./database.ts";

/** Test double for the SMS provider: records the codes it is asked to send (named as a fake). */
export class FakeSmsRecorder implements SmsSender {
  readonly name = "fake-recorder";
  readonly sent: { phone: string; code: string }[] = [];
  async send(phone: string, code: string) {
    this.sent.push({ phone, code });
  }
  lastCode(phone: string): string {
    const hit = [...this.sent].reverse().find((s) => s.phone === phone);
    if (!hit) throw new Error(`no SMS sent to ${phone}`);
    return hit.code;
  }
}

/** The secret every test app signs its cookies with (a live-caption worker of the test derives its token from it). */
export const TEST_COOKIE_SECRET = "test-secret-test-secret-test-secret-0123456789";

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  sms: FakeSmsRecorder;
  redis?: Redis;
  queues: QueueBackend;
  events: EventBus;
  limiter: Limiter;
  files: FileStore;
  /** the business rules' context the app uses (same db, events, files) */
  domain: DomainContext;
  /** the Redis key prefix of its queues and limits; its event channel is `${prefix}:events` */
  prefix: string;
  databaseUrl: string;
  http: () => ReturnType<typeof supertest>;
  close(): Promise<void>;
}

/**
 * Boots the whole API like production does, on a throw-away database cloned from the run's
 * template, with real Redis when REDIS_URL is set (keys and the event channel under a per-file
 * prefix). `shareDatabaseWith` starts a second replica on the same database and Redis prefix.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    shareDatabaseWith?: TestApp;
    sms?: SmsSender;
    /** the request log's destination (a test that reads the log); none by default */
    logger?: FastifyBaseLogger;
  } = {},
): Promise<TestApp> {
  const mode = inject("databaseMode");
  const serverUrl = inject("serverUrl");
  const shared = options.shareDatabaseWith;
  let databaseUrl = shared?.databaseUrl ?? serverUrl;
  let dropDatabase = async () => {};
  if (mode === "external" && !shared) {
    const name = `yuelu_test_${randomBytes(5).toString("hex")}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${inject("templateDatabase")}"`);
    databaseUrl = withDatabase(serverUrl, name);
    dropDatabase = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  const config = loadConfig({
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    DATA_DIR: `/tmp/yuelu-test-data-${randomBytes(4).toString("hex")}`,
    LOG_LEVEL: "silent",
    RATE_LIMIT_PER_MINUTE: "0",
    WEB_DIST: "/nonexistent",
    // tests never reach the internet for speech models
    ASR_AUTO_FETCH: "false",
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  const db = createDb(databaseUrl, { poolSize: mode === "external" ? 8 : 2 });
  const sql = new HotSql(databaseUrl, mode === "embedded");
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL) : undefined;
  const prefix = shared ? sharedPrefix.get(shared)! : `yuelu-test-${randomBytes(4).toString("hex")}`;
  const queues = createQueueBackend({ redisUrl: config.REDIS_URL, databaseUrl, prefix });
  const events = new EventBus(redis ? redisTransport(redis, `${prefix}:events`) : undefined);
  await events.listen();
  const sms = new FakeSmsRecorder();
  const limiter = redis ? redisLimiter(redis, `${prefix}:limit:`) : memoryLimiter();
  // FILE_STORE=s3 in `env` (an s3rver the test started): the S3 store, as production opens it
  const files = await openFileStore(config);
  const app = await buildApp(
    {
      config,
      db,
      sql,
      redis,
      redisPrefix: prefix,
      queues,
      events,
      limiter,
      files,
      cookieSecret: TEST_COOKIE_SECRET,
      sms: options.sms ?? sms,
    },
    options.logger ? { loggerInstance: options.logger } : {},
  );
  await app.ready();
  const testApp: TestApp = {
    app,
    db,
    config,
    sms,
    redis,
    queues,
    events,
    limiter,
    files,
    domain: { db, clock: systemClock, events, config, files },
    prefix,
    databaseUrl,
    http: () => supertest(app.server),
    async close() {
      await app.close();
      await queues.close();
      await events.close();
      if (redis) {
        if (!shared) {
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length) await redis.del(...keys);
        }
        await redis.quit();
      }
      await db.$disconnect();
      await sql.end();
      if (!shared) await dropDatabase();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
  sharedPrefix.set(testApp, prefix);
  return testApp;
}

/** The app's domain context with the clock fixed at `at` (tests that cross midnight or months). */
export function domainAt(t: TestApp, at: Date | string): DomainContext {
  const now = new Date(at);
  return { ...t.domain, clock: { now: () => new Date(now) } };
}

/** Each app's Redis prefix, so a second replica shares the first one's queues, limits and events. */
const sharedPrefix = new WeakMap<TestApp, string>();

let phoneCounter = 0;
/** A phone number no other test in this run uses (test files run in separate processes). */
export function uniquePhone(): string {
  phoneCounter += 1;
  return `139${String(process.pid % 10_000).padStart(4, "0")}${String(phoneCounter).padStart(4, "0")}`;
}

export interface SignedIn {
  userId: number;
  phone: string;
  /** the Cookie header of the session: sid, userid and name */
  cookie: string;
}

/** Signs a user in through the account service exactly as the login page does. */
export async function signIn(t: TestApp, phone = uniquePhone()): Promise<SignedIn> {
  const sent = await t.http().post("/account/api/sms/send").send({ phone });
  if (sent.body.status_code !== 1) throw new Error(`sms/send failed: ${JSON.stringify(sent.body)}`);
  const res = await t
    .http()
    .post("/account/api/login")
    .send({ phone, code: t.sms.lastCode(phone) });
  if (res.body.status_code !== 1) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
  const cookies = [res.headers["set-cookie"] ?? []].flat() as string[];
  return { userId: res.body.data.userId, phone, cookie: cookies.map((c) => c.split(";")[0]).join("; ") };
}

/** Another session of an existing phone's account (a second device), through dev-login: no SMS, no rate limit. */
export async function devSession(t: TestApp, phone: string): Promise<SignedIn> {
  const res = await t.http().get(`/account/dev-login?phone=${phone}&redir=/`).set("Host", "127.0.0.1");
  if (res.status !== 302) throw new Error(`dev-login failed: ${res.status} ${res.text}`);
  const cookies = [res.headers["set-cookie"] ?? []].flat() as string[];
  const cookie = cookies.map((c) => c.split(";")[0]).join("; ");
  const userId = Number(/userid=(\d+)/.exec(cookie)?.[1]);
  return { userId, phone, cookie };
}
