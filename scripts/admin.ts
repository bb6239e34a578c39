// `npm run admin -- <command>`: the operators' tools. Uses DATABASE_URL, or the embedded database
// under DATA_DIR (through the running server when there is one, else opening it directly).
//
//   grant <phone> | revoke <phone>      make an account an operator of the console (/admin), or not
//   gift-codes create --count 10 (--beans 50 | --card-minutes 60 | --member-days 30)
//                     [--max-uses 1] [--expires 2027-01-31] [--batch spring]     prints the codes
//   gift-codes list [--batch spring]
//   broadcast --title "标题" --text "内容" [--title-en "Title"] [--text-en "Text"] [--user <id or phone>]
//   feedback list [--limit 50]          satisfaction list [--limit 50]
//   files migrate --to s3               copies DATA_DIR/files into the S3 bucket (S3_* variables),
//                                       verifying each file's SHA-256; safe to run again
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDb, type Db } from "@yuelu/db";
import { AppError, broadcast, CLI_ACTOR, createGiftCodes, setRole } from "@yuelu/domain";
import { embeddedUrlFile, loadConfig, localFileStore, migrateFiles, openDatabase } from "@yuelu/runtime";
import pg from "pg";

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
  },
});

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

const int = (name: string, value: string | undefined): number => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) fail(`--${name} must be a positive integer`);
  return n;
};

/** The database: DATABASE_URL; else the running server's embedded one; else the embedded one opened here. */
async function database(): Promise<{ db: Db; close(): Promise<void> }> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: "silent" });
  if (config.DATABASE_URL) {
    const db = createDb(config.DATABASE_URL, { poolSize: 2 });
    return { db, close: () => db.$disconnect() };
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
      return { db, close: () => db.$disconnect() };
    }
  }
  const handle = await openDatabase(config);
  return { db: handle.db, close: () => handle.close() };
}

const [area, action] = positionals;
if (area === "files") {
  if (action !== "migrate" || values.to !== "s3") fail("files migrate --to s3");
  await migrateToS3().catch((error: unknown) => fail((error as Error).message));
  process.exit(0);
}
const { db, close } = await database();
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
  } else if (area === "gift-codes" && action === "create") {
    const kinds = [values.beans, values["card-minutes"], values["member-days"]].filter((v) => v !== undefined);
    if (kinds.length !== 1) fail("give exactly one of --beans, --card-minutes, --member-days");
    const [rewardType, rewardNumber] = values.beans
      ? [0, int("beans", values.beans)]
      : values["card-minutes"]
        ? [1, int("card-minutes", values["card-minutes"]) * 60]
        : [101, int("member-days", values["member-days"])];
    const expiresAt = values.expires ? new Date(`${values.expires}T23:59:59+08:00`) : undefined;
    if (expiresAt && Number.isNaN(expiresAt.getTime())) fail("--expires must be YYYY-MM-DD");
    const codes = await createGiftCodes(
      { db },
      {
        count: int("count", values.count),
        rewardType,
        rewardNumber,
        maxRedemptions: int("max-uses", values["max-uses"]),
        expiresAt,
        batch: values.batch ?? "",
      },
    ).catch((error: unknown) => {
      // the rules' own refusal, in words (the limits: packages/contracts GIFT_CODE_LIMITS)
      if (error instanceof AppError && error.field) fail(`${error.field}: ${error.reason ?? "not accepted"}`);
      throw error;
    });
    console.log(codes.join("\n"));
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
  } else if (area === "broadcast") {
    if (!values.title || !values.text) fail("--title and --text are required");
    let userId: number | undefined;
    if (values.user) {
      const user = /^\d{11}$/.test(values.user)
        ? await db.user.findUnique({ where: { phone: values.user } })
        : await db.user.findUnique({ where: { id: int("user", values.user) } });
      if (!user) fail(`no user ${values.user}`);
      userId = user.id;
    }
    const notifyId = await broadcast(
      { db },
      { title: values.title, text: values.text, titleEn: values["title-en"], textEn: values["text-en"], userId },
    );
    console.log(`message ${notifyId} sent to ${userId === undefined ? "everyone" : `user ${userId}`}`);
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
  } else {
    fail(
      "commands: grant|revoke <phone>, gift-codes create|list, broadcast, feedback list, satisfaction list (see scripts/admin.ts)",
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
