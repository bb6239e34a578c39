// The console's commands in `npm run admin` (scripts/admin.ts): the same audited rules as the
// operator console's API (packages/domain/src/admin), performed by the operator 'cli'.
import { randomBytes } from "node:crypto";
import {
  ADMIN_GIFT_REWARD_MAX,
  type AdminGiftKind,
  statusMessages,
  ZAdminGiftBatchCreate,
  ZAdminMessageSend,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError, CLI_ACTOR, createGiftBatch, editPayGoods, sendAdminMessage, systemClock } from "@yuelu/domain";
import type { z } from "zod";

export interface ConsoleArgs {
  area: string | undefined;
  positionals: string[];
  values: Record<string, string | undefined>;
}

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

/** The input checked by the same schema as the console's call; a refusal names the field. */
function parsed<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    fail(`${issue?.path.join(".") || "input"}: ${issue?.message ?? "not accepted"}`);
  }
  return result.data;
}

/** The rules' own refusal, in words (10002 naming the field; other codes by their meaning). */
function refused(error: unknown): never {
  if (error instanceof AppError && error.field) fail(`${error.field}: ${error.reason ?? "not accepted"}`);
  if (error instanceof AppError) fail(`${statusMessages[error.code]?.en ?? "refused"} (${error.code})`);
  throw error;
}

/** set-price, gift-codes create, broadcast. */
export async function consoleCommand(db: Db, { area, positionals, values }: ConsoleArgs): Promise<void> {
  // The API reads everything these change from the database on each call: nothing to announce.
  const ctx = { db, events: { publish: async () => {} }, clock: systemClock };
  if (area === "set-price") {
    const [goodsId, fen] = positionals.slice(1).map(Number);
    if (!Number.isSafeInteger(goodsId) || !Number.isSafeInteger(fen))
      fail("set-price <goodsId> <fen> [--original <fen>]");
    const original = values.original === undefined ? undefined : Number(values.original);
    const goods = await editPayGoods(ctx, CLI_ACTOR, goodsId as number, {
      priceFen: fen,
      ...(original === undefined ? {} : { originalPriceFen: original }),
    }).catch(refused);
    console.log(
      `goods ${goods.goodsId} (${goods.goodsName}) now costs ${goods.priceFen} fen (original ${goods.originalPriceFen}); orders placed before keep their amount`,
    );
  } else if (area === "broadcast") {
    const user = values.user;
    const input = parsed(ZAdminMessageSend, {
      requestId: `cli-${randomBytes(12).toString("hex")}`,
      audience: user ? "user" : "all",
      ...(user ? (/^\d{11}$/.test(user) ? { phone: user } : { userId: user }) : {}),
      title: values.title,
      text: values.text,
      titleEn: values["title-en"] ?? "",
      textEn: values["text-en"] ?? "",
    });
    const sent = await sendAdminMessage(ctx, CLI_ACTOR, input).catch(refused);
    console.log(`message ${sent.notifyId} sent to ${user ? `user ${user}` : "everyone"}`);
  } else {
    const kinds = [values.beans, values["card-minutes"], values["member-days"]].filter((v) => v !== undefined);
    if (kinds.length !== 1) fail("give exactly one of --beans, --card-minutes, --member-days");
    const [kind, reward] = values.beans
      ? ["beans", values.beans]
      : values["card-minutes"]
        ? ["cardMinutes", values["card-minutes"]]
        : ["memberDays", values["member-days"]];
    // the reward's range in the flag's own words (the schema would only name `reward`)
    const flag = { beans: "beans", cardMinutes: "card-minutes", memberDays: "member-days" }[kind as AdminGiftKind];
    const most = ADMIN_GIFT_REWARD_MAX[kind as AdminGiftKind];
    const n = Number(reward);
    if (!Number.isSafeInteger(n) || n < 1 || n > most) fail(`${flag}: from 1 to ${most.toLocaleString("en-US")}`);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
    const input = parsed(ZAdminGiftBatchCreate, {
      // the name is the batch's key: one given twice answers the codes made the first time
      batch: values.batch || `cli-${stamp}`,
      kind,
      reward,
      count: values.count,
      maxUses: values["max-uses"] ?? "1",
      expiresAt: values.expires,
    });
    const batch = await createGiftBatch(ctx, CLI_ACTOR, input).catch(refused);
    if (!batch.created) console.error(`admin: batch ${batch.batch} exists already: its codes`);
    console.log(batch.codes.join("\n"));
  }
}
