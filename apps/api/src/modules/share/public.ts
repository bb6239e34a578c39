import { randomBytes } from "node:crypto";
import {
  type Lang,
  localSpeakerName,
  parseLang,
  type Segment,
  SHARE_GUESS_LIMIT,
  SHARE_GUESS_WINDOW_SECONDS,
  SHARE_PAGE_LIMIT_PER_MINUTE,
  SHARE_PASSWORD_LIMIT,
  SHARE_PASSWORD_WINDOW_SECONDS,
  StatusCode,
} from "@yuelu/contracts";
import {
  AppError,
  checkSharePassword,
  countShareView,
  resolveShareToken,
  type SharedRecord,
  type ShareRefusal,
} from "@yuelu/domain";
import { clientNetwork } from "@yuelu/runtime";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { contentDisposition } from "../../lib/content-disposition.ts";
import { askedLang } from "../../lib/lang.ts";
import { withGuessLimits } from "../../lib/limiter.ts";
import { rangeRequestOf, sendDownload, serveStored } from "../../lib/stored-file.ts";
import { mimeOf } from "../records/names.ts";
import { forReader, ownedTranscript } from "../transcript/service.ts";
import {
  noticePage,
  passwordPage,
  type SharedSegment,
  type ShareNotice,
  sharedRecordPage,
  sharePageCsp,
} from "./page.ts";

/** Cookie that unlocks one password-protected link: scoped to /s/<token>, signed, its value the link's id. */
export const shareCookieName = (linkId: number) => `yl_share_${linkId}`;
const UNLOCK_SECONDS = 12 * 3600;

const NOTICE_OF: Record<ShareRefusal, { notice: ShareNotice; status: number }> = {
  "not-found": { notice: "notFound", status: 404 },
  revoked: { notice: "revoked", status: 410 },
  expired: { notice: "expired", status: 410 },
  "record-deleted": { notice: "deleted", status: 410 },
};

/** Thrown inside the guess limit for an unknown token: only those spend the address's guesses. */
const UNKNOWN = Symbol("unknown share token");

/** What a share page may show of a line (issue 45: its words' times, to follow and seek by word); nothing else. */
function shownSegment(s: Segment): SharedSegment {
  return {
    spkName: s.spkName,
    startTime: s.startTime,
    text: s.text,
    ...(s.words?.length ? { words: s.words.map((w) => ({ text: w.text, startTime: w.startTime })) } : {}),
  };
}

/** The page's language: `lang` query, header or cookie, then Accept-Language, else zh. */
export function shareLang(request: FastifyRequest): Lang {
  const asked = askedLang(request);
  if (asked) return asked;
  const header = request.headers["accept-language"];
  if (typeof header === "string") {
    const ranked = header
      .split(",")
      .map((part, i) => {
        const [tag = "", ...params] = part.trim().split(";");
        const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
        return { lang: parseLang(tag.trim()), q: q === undefined ? 1 : Number(q), i };
      })
      .filter((r) => r.lang && r.q > 0)
      .sort((a, b) => b.q - a.q || a.i - b.i);
    if (ranked[0]?.lang) return ranked[0].lang;
  }
  return "zh";
}

/**
 * The public share pages (docs/share.md), outside /voice_yuelu and without sign-in:
 * GET /s/:token (the page), POST /s/:token (its password), GET /s/:token/audio (the recording, with Range).
 * Requests for unknown tokens and wrong passwords are limited per address (guessing; an IPv6 address
 * by its /64), page loads too (a flood guard); the counts live in the shared limiter (Redis when configured), so they hold across API replicas.
 */
export default async function sharePublicRoutes(app: FastifyInstance) {
  const { db, files, limiter, config } = app.deps;
  const domain = app.domain;
  const secureCookies = (config.PUBLIC_URL ?? "").startsWith("https://");

  function sendHtml(reply: FastifyReply, status: number, lang: Lang, render: (nonce: string) => string) {
    const nonce = randomBytes(16).toString("base64");
    return reply
      .code(status)
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header("x-robots-tag", "noindex, nofollow")
      .header("content-language", lang === "zh" ? "zh-CN" : "en")
      .header("content-security-policy", sharePageCsp(nonce))
      .send(render(nonce));
  }
  const notice = (reply: FastifyReply, lang: Lang, status: number, which: ShareNotice) =>
    sendHtml(reply, status, lang, (nonce) => noticePage(lang, nonce, which));

  /** The link behind the token under the guess limit; a refusal is answered here (undefined returned). */
  async function open(request: FastifyRequest, reply: FastifyReply, lang: Lang): Promise<SharedRecord | undefined> {
    const { token } = request.params as { token: string };
    try {
      const found = await withGuessLimits(
        limiter,
        [
          {
            key: `share-guess:${clientNetwork(request.ip)}`,
            limit: SHARE_GUESS_LIMIT,
            windowSeconds: SHARE_GUESS_WINDOW_SECONDS,
          },
        ],
        async () => {
          const resolution = await resolveShareToken(domain, token);
          if (!resolution.ok && resolution.reason === "not-found") throw UNKNOWN;
          return resolution;
        },
        (error) => error === UNKNOWN,
      );
      if (found.ok) return found.shared;
      const { status, notice: which } = NOTICE_OF[found.reason];
      await notice(reply, lang, status, which);
    } catch (error) {
      if (error === UNKNOWN) await notice(reply, lang, 404, "notFound");
      else if (error instanceof AppError && error.code === StatusCode.TooManyRequests) await tooMany(reply, lang);
      else throw error;
    }
    return undefined;
  }

  async function tooMany(reply: FastifyReply, lang: Lang) {
    reply.header("retry-after", "60");
    await notice(reply, lang, 429, "tooMany");
  }

  /** Whether the visitor may see the link: no password, or this link's unlock cookie. */
  function unlocked(request: FastifyRequest, shared: SharedRecord): boolean {
    if (!shared.link.passwordHash) return true;
    const raw = request.cookies[shareCookieName(shared.link.id)];
    if (!raw) return false;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value === String(shared.link.id);
  }

  const pagePath = (shared: SharedRecord) => `/s/${shared.link.token}`;

  async function pageFlood(request: FastifyRequest, reply: FastifyReply, lang: Lang): Promise<boolean> {
    if (await limiter.hit(`share-page:${clientNetwork(request.ip)}`, SHARE_PAGE_LIMIT_PER_MINUTE, 60)) return false;
    await tooMany(reply, lang);
    return true;
  }

  app.get("/s/:token", async (request, reply) => {
    const lang = shareLang(request);
    if (await pageFlood(request, reply, lang)) return reply;
    const shared = await open(request, reply, lang);
    if (!shared) return reply;
    if (!unlocked(request, shared)) {
      return sendHtml(reply, 200, lang, (nonce) => passwordPage(lang, nonce, pagePath(shared), false));
    }
    const { record, clip } = shared;
    // with its words' times (get_text's lean read drops them): the page follows and seeks by word. A clip's
    // link (docs/clips.md) shows the clip's title, length and own captions, never the rest of the record.
    const t = clip
      ? undefined
      : await ownedTranscript(db, record.userId, record.fileId).catch((error: unknown) => {
          // the record lost its transcript after the link was made: the page shows the rest
          if (error instanceof AppError) return undefined;
          throw error;
        });
    const reader = t ? forReader(t, lang) : undefined;
    const segments = (
      clip ? clip.segments.map((s) => ({ ...s, spkName: localSpeakerName(s.spkName, lang) })) : (reader?.segments ?? [])
    ).map(shownSegment);
    // exactly what the owner has saved (issue 43): the stored summary, or none — never one made for the
    // visitor that the owner's own page does not show
    const abstracts = clip ? "" : (reader?.abstracts ?? "");
    // one view per page load (HEAD and the audio's range requests do not count)
    if (request.method === "GET") await countShareView(domain, shared.link.id);
    return sendHtml(reply, 200, lang, (nonce) =>
      sharedRecordPage(lang, nonce, {
        fileName: clip ? clip.title || record.fileName : record.fileName,
        timeLen: clip ? Math.ceil((clip.endTime - clip.startTime) / 1000) : record.timeLen,
        ownerName: shared.ownerName,
        abstracts,
        segments,
        ...(shared.link.withAudio ? { audioUrl: `${pagePath(shared)}/audio` } : {}),
      }),
    );
  });

  app.post("/s/:token", async (request, reply) => {
    const lang = shareLang(request);
    if (await pageFlood(request, reply, lang)) return reply;
    const shared = await open(request, reply, lang);
    if (!shared) return reply;
    const back = () => reply.header("cache-control", "no-store").redirect(pagePath(shared), 303);
    if (!shared.link.passwordHash) return back();
    const body = request.body as Record<string, unknown> | undefined;
    const password = typeof body?.password === "string" ? body.password.slice(0, 200) : "";
    const WRONG = Symbol("wrong password");
    try {
      // Counted per viewer (their network), never per link: a count per link let anyone who guessed ten
      // times lock the link for every real viewer. A guesser is still held to SHARE_PASSWORD_LIMIT, over
      // every link, from its address — or from its whole /64 for IPv6, where it could pick a new address
      // for each guess.
      await withGuessLimits(
        limiter,
        [
          {
            key: `share-password:${clientNetwork(request.ip)}`,
            limit: SHARE_PASSWORD_LIMIT,
            windowSeconds: SHARE_PASSWORD_WINDOW_SECONDS,
          },
        ],
        async () => {
          if (!(await checkSharePassword(shared.link, password))) throw WRONG;
        },
        (error) => error === WRONG,
      );
    } catch (error) {
      if (error === WRONG) {
        return sendHtml(reply, 401, lang, (nonce) => passwordPage(lang, nonce, pagePath(shared), true));
      }
      if (error instanceof AppError && error.code === StatusCode.TooManyRequests) return tooMany(reply, lang);
      throw error;
    }
    reply.setCookie(shareCookieName(shared.link.id), String(shared.link.id), {
      path: pagePath(shared),
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies,
      signed: true,
      maxAge: UNLOCK_SECONDS,
    });
    return back();
  });

  app.get("/s/:token/audio", async (request, reply) => {
    const lang = shareLang(request);
    const shared = await open(request, reply, lang);
    if (!shared) return reply;
    if (!shared.link.withAudio) return notice(reply, lang, 404, "notFound");
    if (!unlocked(request, shared)) return notice(reply, lang, 403, "notFound");
    const { record, clip } = shared;
    try {
      // a clip's link plays the clip's file (docs/clips.md)
      const download = await serveStored(files, clip?.storageKey ?? record.storageKey, rangeRequestOf(request), {
        "content-type": clip ? (clip.kind === "video" ? "video/mp4" : "audio/mp4") : mimeOf(record.format),
        "content-disposition": contentDisposition(
          clip ? `${clip.title || "clip"}.${clip.kind === "video" ? "mp4" : "m4a"}` : record.fileName,
          true,
        ),
        "cache-control": "private, no-store",
        "x-robots-tag": "noindex, nofollow",
      });
      return sendDownload(reply, download);
    } catch (error) {
      if (error instanceof AppError && error.code === StatusCode.FileNotFound) {
        return notice(reply, lang, 404, "notFound");
      }
      throw error;
    }
  });

  // anything else under /s/ is no link either: the same page, never the SPA or the JSON envelope
  for (const url of ["/s", "/s/*"]) {
    app.get(url, async (request, reply) => notice(reply, shareLang(request), 404, "notFound"));
  }
}
