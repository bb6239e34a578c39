import { SURVEY_SKIP, type WelcomeGiftKind } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { advanceTasks } from "../rewards/task-progress.ts";
import { businessDay } from "../time.ts";
import { userChanged } from "../transaction.ts";
import { dropAvatarFile, isBuiltInAvatar } from "./avatar.ts";

/** Writes to a user's own row; each announces "user.changed" once committed (the user-info cache). */

type Ctx = Pick<DomainContext, "db" | "clock" | "events" | "config">;

/**
 * Nickname, avatar, and welcome gifts the onboarding dialogs have announced (shown once). The avatar
 * a user may choose: none (""), a built-in one, or the photo they uploaded themselves (their current
 * one, unchanged; `uploaded` is the upload's own call). An uploaded avatar that is replaced loses its
 * file — only the caller's, and only once no profile shows it.
 */
export async function updateProfile(
  ctx: Ctx & Pick<DomainContext, "files">,
  userId: number,
  input: { nickName?: string; userPhoto?: string; giftsShown?: WelcomeGiftKind | WelcomeGiftKind[] },
  options: { uploaded?: boolean } = {},
): Promise<void> {
  const shown = input.giftsShown === undefined ? [] : [input.giftsShown].flat();
  const before =
    input.userPhoto === undefined
      ? undefined
      : (await ctx.db.user.findUniqueOrThrow({ where: { id: userId }, select: { userPhoto: true } })).userPhoto;
  const photo = input.userPhoto;
  if (photo !== undefined && !options.uploaded && photo !== "" && !isBuiltInAvatar(photo) && photo !== before) {
    throw AppError.invalid("userPhoto", "must be one of the built-in avatars or a photo you uploaded");
  }
  await ctx.db.$transaction([
    ctx.db.user.update({
      where: { id: userId },
      data: {
        ...(input.nickName !== undefined ? { nickName: input.nickName } : {}),
        ...(input.userPhoto !== undefined ? { userPhoto: input.userPhoto } : {}),
      },
    }),
    ctx.db.welcomeGift.updateMany({
      where: { userId, kind: { in: shown }, shownAt: null },
      data: { shownAt: ctx.clock.now() },
    }),
  ]);
  await userChanged(ctx, userId);
  if (before !== undefined && before !== photo) await dropAvatarFile(ctx, before);
}

/** A password hash (scrypt, made by the account service) for password sign-in. */
export async function setPasswordHash(ctx: Ctx, userId: number, passwordHash: string): Promise<void> {
  await ctx.db.user.update({ where: { id: userId }, data: { passwordHash } });
  await userChanged(ctx, userId);
}

/**
 * Stores the survey answers (spec §4 Survey). Each must be one of the listed options — by its stored
 * value (the Chinese name), or its English name — or 'Skip'; the stored value is the same whatever
 * the language the user answered in.
 */
export async function updateSurvey(ctx: Ctx, userId: number, input: { identity?: string; channel?: string }) {
  const options = await ctx.db.infoCollectOption.findMany();
  const resolve = (kind: "identity" | "channel", value: string | undefined) => {
    if (value === undefined) return undefined;
    if (value.toLowerCase() === SURVEY_SKIP.toLowerCase()) return SURVEY_SKIP;
    const match = options.find(
      (o) => o.kind === kind && (o.name === value || o.nameEn.toLowerCase() === value.toLowerCase()),
    );
    if (!match) throw AppError.invalid(kind, "not one of the listed options");
    return match.name;
  };
  const identity = resolve("identity", input.identity);
  const channel = resolve("channel", input.channel);
  await ctx.db.$transaction(async (tx) => {
    const user = await tx.user.update({
      where: { id: userId },
      data: {
        ...(identity !== undefined ? { infoCollectIdentity: identity } : {}),
        ...(channel !== undefined ? { infoCollectChannel: channel } : {}),
      },
    });
    // The 'complete your profile' challenge: both steps answered (a skipped step is not an answer).
    const answered = [user.infoCollectIdentity, user.infoCollectChannel].every((v) => v && v !== SURVEY_SKIP);
    if (answered) await advanceTasks(tx, userId, "survey", 1, businessDay(ctx.clock.now(), ctx.config.BUSINESS_TZ));
  });
  await userChanged(ctx, userId);
  return { infoCollectIdentity: identity ?? null, infoCollectChannel: channel ?? null };
}
