// `npm run admin -- <command>`: the operators' tools. Uses DATABASE_URL, or the embedded database
// under DATA_DIR (through the running server when there is one, else opening it directly).
//
//   grant <phone> | revoke <phone>      make an account an operator of the console (/admin), or not
//   gift-codes create --count 10 (--beans 50 | --card-minutes 60 | --member-days 30)
//                     [--max-uses 1] [--expires 2027-01-31] [--batch spring]     prints the codes
//   gift-codes list [--batch spring]
//   broadcast --title "标题" --text "内容" [--title-en "Title"] [--text-en "Text"] [--user <id or phone>]
//   set-price <goodsId> <fen> [--original <fen>]   a plan's or card's price from the next order on
//   feedback list [--limit 50]          satisfaction list [--limit 50]
//   engines                             engines, tools and speech models here and on the workers; what to install
//   jobs retry-failed [--queue q]       every failed job (of one queue) back to waiting, its tries from zero
//   files migrate --to s3               copies DATA_DIR/files into the S3 bucket (S3_* variables),
//                                       verifying each file's SHA-256; safe to run again
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDb, type Db } from "@yuelu/db";
import { AppError, CLI_ACTOR, setRole } from "@yuelu/domain";
import { embeddedUrlFile, loadConfig, localFileStore, migrateFiles, openDatabase } from "@yuelu/runtime";
import pg from "pg";
import { consoleCommand } from "./admin-console.ts";
import { enginesCommand, retryFailedCommand } from "./admin-system.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    count: { type: "string" },
    beans: { type: "string" },
    "card-minutes": { type: "string" },
    "member-days": { type: "string" },
    "max-uses": { type: "string", default: "1" },
    expires: { type: "string" },
    batch: { type: "string", default: "" },
    title: { type: "string" },
    text: { type: "string" },
    "title-en": { type: "string" },
    "text-en": { type: "string" },
    user: { type: "string" },
    limit: { type: "string", default: "50" },
    to: { type: "string" },
    queue: { type: "string" },
    original: { type: "string" },
  },
});

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

/** The database: DATABASE_URL; else the running server's embedded one; else the embedded one opened here. */
async function database(): Promise<{ db: Db; url: string; close(): Promise<void> }> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
  if (config.DATABASE_URL) {
    const db = createDb(config.DATABASE_URL, { poolSize: 2 });
    return { db, url: config.DATABASE_URL, close: () => db.$disconnect() };
  }
  const url = await readFile(embeddedUrlFile(config.dataDir), "utf8").catch(() => "");
  if (url) {
    const probe = new pg.Client({ connectionString: url });
    const running = await probe.connect().then(
      () => true,
      () => false,
    );
    await probe.end().catch(() => {});
    if (running) {
      const db = createDb(url, { poolSize: 1 });
      return { db, url, close: () => db.$disconnect() };
    }
  }
  const handle = await openDatabase(config);
  return { db: handle.db, url: handle.url, close: () => handle.close() };
}

const [area, action] = positionals;
if (area === undefined || area === "help" || area === "--help") {
  // the usage is this file's opening comment: one text to keep up to date
  // compiled (scripts/dist/admin.js, which keeps no comments): the TypeScript file beside the folder
  const self = import.meta.url.endsWith(".js") ? new URL("../admin.ts", import.meta.url) : new URL(import.meta.url);
  const source = await readFile(self, "utf8");
  const lines = source.split("\n");
  const usage = lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith("//")),
  );
  console.log(usage.map((line) => line.replace(/^\/\/ ?/, "")).join("\n"));
  process.exit(0);
}
if (area === "files") {
  if (action !== "migrate" || values.to !== "s3") fail("files migrate --to s3");
  await migrateToS3().catch((error: unknown) => fail((error as Error).message));
  process.exit(0);
}
const { db, url: databaseUrl, close } = await database();
try {
  if (area === "grant" || area === "revoke") {
    const phone = action ?? "";
    if (!/^1\d{10}$/.test(phone)) fail(`${area} <phone>: an 11-digit phone number of an existing account`);
    // Events go nowhere from here; the API reads the role from the database on every admin call.
    const events = { publish: async () => {} };
    const result = await setRole({ db, events }, CLI_ACTOR, phone, area === "grant" ? "admin" : "user").catch(
      (error: unknown) => {
        if (error instanceof AppError) fail(`no account with phone ${phone}: sign in once with it first`);
        throw error;
      },
    );
    const what = area === "grant" ? "is now an operator (open /admin)" : "is no longer an operator";
    console.log(
      `user ${result.userId} (${phone}) ${result.changed ? what : `already ${area === "grant" ? "was an operator" : "was not an operator"}`}`,
    );
  } else if (area === "set-price" || (area === "gift-codes" && action === "create") || area === "broadcast") {
    // the console's own audited rules (packages/domain/src/admin), as the operator 'cli'
    await consoleCommand(db, { area, positionals, values });
  } else if (area === "gift-codes" && action === "list") {
    const rows = await db.giftCode.findMany({
      where: values.batch ? { batch: values.batch } : {},
      orderBy: { id: "desc" },
      take: Number(values.limit),
    });
    for (const g of rows) {
      const reward =
        g.rewardType === 0
          ? `${g.rewardNumber} beans`
          : g.rewardType === 1
            ? `${g.rewardNumber / 60} min card`
            : `${g.rewardNumber} member days`;
      console.log(
        `${g.packCode}\t${reward}\tused ${g.redeemedCount}/${g.maxRedemptions}\t${g.expiresAt?.toISOString().slice(0, 10) ?? "no expiry"}\t${g.batch}`,
      );
    }
  } else if (area === "feedback" && action === "list") {
    const rows = await db.feedback.findMany({ orderBy: { id: "desc" }, take: Number(values.limit) });
    for (const f of rows) {
      console.log(
        `#${f.id}\t${f.createdAt.toISOString()}\tuser ${f.userId ?? "-"}\tcategory ${f.categoryId}\t${f.contact}\t${f.images.length} image(s)\n  ${f.content.replace(/\n/g, "\n  ")}`,
      );
    }
  } else if (area === "satisfaction" && action === "list") {
    const rows = await db.satisfactionRating.findMany({ orderBy: { id: "desc" }, take: Number(values.limit) });
    for (const r of rows)
      console.log(`#${r.id}\t${r.createdAt.toISOString()}\t${r.rating}/5\tuser ${r.userId ?? "-"}\t${r.comment}`);
  } else if (area === "engines") {
    await enginesCommand(db, loadConfig({ ...process.env, LOG_LEVEL: "silent" }));
  } else if (area === "jobs" && action === "retry-failed") {
    await retryFailedCommand(db, loadConfig({ ...process.env, LOG_LEVEL: "silent" }), databaseUrl, values.queue);
  } else {
    fail(
      "commands: grant|revoke <phone>, gift-codes create|list, broadcast, set-price, feedback list, satisfaction list, engines, jobs retry-failed (see scripts/admin.ts)",
    );
  }
} finally {
  await close();
}

/** `files migrate --to s3`: DATA_DIR/files → the S3 bucket of the S3_* variables, verified. */
async function migrateToS3(): Promise<void> {
  // The files as they are today (FILE_STORE=local): the S3_* variables name where they go.
  const config = loadConfig({ ...process.env, FILE_STORE: "local", LOG_LEVEL: "silent" });
  if (!config.S3_BUCKET)
    fail("set S3_BUCKET (and S3_ENDPOINT, the keys, S3_FORCE_PATH_STYLE) to the bucket to copy into");
  const from = localFileStore(path.join(config.dataDir, "files"));
  const { ensureBucket, s3FileStore } = await import("@yuelu/runtime/s3-file-store");
  const settings = { ...config, S3_BUCKET: config.S3_BUCKET };
  await ensureBucket(settings);
  const to = s3FileStore(settings, { tmpDir: path.join(config.dataDir, "tmp") });
  console.log(`copying ${path.join(config.dataDir, "files")} → s3://${settings.S3_BUCKET}`);
  const report = await migrateFiles(from, to, {
    onFile: (key, outcome) => outcome === "failed" && console.error(`  failed: ${key}`),
  });
  console.log(
    `${report.copied} copied (${(report.bytes / 1024 / 1024).toFixed(1)} MiB), ${report.skipped} already there, ${report.failed.length} failed`,
  );
  for (const f of report.failed) console.error(`  ${f.key}: ${f.reason}`);
  if (report.failed.length > 0) fail("some files were not copied: run the command again (copied files are skipped)");
  console.log("every file is in the bucket, verified: set FILE_STORE=s3 on every API and worker process");
}
