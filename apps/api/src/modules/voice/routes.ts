import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  type Lang,
  LYRICS_MAX,
  MIDI_MAX_BYTES,
  MY_VOICE_MAX_SECONDS,
  MY_VOICE_MIN_SECONDS,
  ok,
  SONG_MAX_BYTES,
  SONG_MAX_SECONDS,
  SONG_MIN_SECONDS,
  SONG_REFUSAL_WORDS,
  sampleProblemText,
  ZConvertCreate,
  ZMyVoice,
  ZMyVoiceCreate,
  ZMyVoiceFileQuery,
  ZMyVoiceIds,
  ZMyVoiceList,
  ZMyVoiceQuery,
  ZMyVoiceRename,
  ZMyVoiceRetrain,
  ZSingCreate,
  ZTuneList,
  ZVoiceCapabilities,
  ZVoiceProgressItem,
  ZVoiceQuota,
  ZVoiceWork,
  ZVoiceWorkFileQuery,
  ZVoiceWorkIds,
  ZVoiceWorkList,
  ZVoiceWorkListQuery,
  ZVoiceWorkRename,
} from "@yuelu/contracts";
import { fitLyrics, splitLyrics } from "@yuelu/contracts/syllables";
import { BUILT_IN_TUNES } from "@yuelu/contracts/tunes";
import {
  AppError,
  createMyVoice,
  createVoiceWork,
  deleteMyVoice,
  deleteVoiceWorks,
  listMyVoices,
  listVoiceWorks,
  type Melody,
  MidiProblem,
  ownMyVoice,
  ownMyVoices,
  ownVoiceWork,
  ownVoiceWorks,
  renameMyVoice,
  renameVoiceWork,
  retrainMyVoice,
  transpose,
  tuneFromMidi,
  voiceQuota,
} from "@yuelu/domain";
import { withTempDir } from "@yuelu/runtime";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import { FILE_ROUTES } from "../../lib/file-urls.ts";
import { getAndPost } from "../../lib/get-and-post.ts";
import { requestLang } from "../../lib/lang.ts";
import { rangeRequestOf, sendDownload } from "../../lib/stored-file.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { sendEnvelope } from "../../plugins/errors.ts";
import { mediaTools } from "../records/probe.ts";
import { UploadRefused } from "../records/upload.ts";
import {
  capabilities,
  chooseVoice,
  enqueueVoiceTask,
  myVoiceView,
  myVoiceViews,
  progressItem,
  removeFiles,
  serveVoiceFile,
  workView,
} from "./service.ts";
import { readVoiceUpload, storeUpload, type VoiceUploadDeps, VoiceUploadRefused } from "./upload.ts";

const tags = ["voice"];

const sampleLength = (seconds: number) =>
  seconds < MY_VOICE_MIN_SECONDS
    ? { zh: sampleProblemText("too-short", "zh"), en: sampleProblemText("too-short", "en") }
    : seconds > SAMPLE_MAX_SECONDS
      ? { zh: sampleProblemText("too-long", "zh"), en: sampleProblemText("too-long", "en") }
      : undefined;

/** The longest speech sample taken (the length check allows half a second over the limit). */
const SAMPLE_MAX_SECONDS = MY_VOICE_MAX_SECONDS + 0.5;

const songLength = (seconds: number) =>
  seconds > SONG_MAX_SECONDS
    ? SONG_REFUSAL_WORDS.tooLong
    : seconds < SONG_MIN_SECONDS
      ? SONG_REFUSAL_WORDS.tooShort
      : undefined;

const MIDI_WORDS: Record<MidiProblem["problem"], Record<Lang, string>> = {
  unreadable: { zh: "无法读取该 MIDI 文件", en: "the MIDI file could not be read" },
  "no-notes": { zh: "MIDI 文件中没有音符", en: "the MIDI file has no notes" },
  "too-long": SONG_REFUSAL_WORDS.melodyTooLong,
};

/** My voice, AI singing and song voice conversion (docs/voice.md). */
export default async function voiceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const { db, files } = deps;
  const open = { auth: "public" as const };
  const uploads = (req: FastifyRequest): VoiceUploadDeps => ({
    files,
    log: req.log,
    lang: requestLang(req),
    tools: mediaTools(deps.config),
    tmpDir: path.join(deps.config.dataDir, "tmp"),
  });
  const withQueue = { ...deps, domain: app.domain };

  /** Runs an upload call; a refused upload answers 20004 with why, in the caller's language. */
  async function uploadCall<T>(req: FastifyRequest, reply: FastifyReply, work: (dir: string) => Promise<T>) {
    try {
      return await withTempDir(work, path.join(deps.config.dataDir, "tmp"));
    } catch (error) {
      if (error instanceof UploadRefused || error instanceof VoiceUploadRefused) {
        req.log.info({ reason: error instanceof UploadRefused ? error.refusal : error.why.en }, "voice upload refused");
        return sendEnvelope(reply, error.httpStatus, error.code, error.explain(requestLang(req)));
      }
      throw error;
    }
  }

  // ── public: what the pages need before sign-in ──

  getAndPost(
    app,
    { url: "/voice/tunes", tags, input: z.object({}), response: envelopeOf(ZTuneList), config: open },
    async (_q, req) => {
      const lang = requestLang(req);
      return ok({
        list: BUILT_IN_TUNES.map((t) => ({
          id: t.id,
          name: lang === "en" ? t.nameEn : t.nameZh,
          bpm: t.bpm,
          melody: t.melody.map((n) => ({ ...n })),
          lyrics: lang === "en" ? t.lyricsEn : t.lyricsZh,
        })),
      });
    },
  );

  getAndPost(
    app,
    { url: "/voice/capabilities", tags, input: z.object({}), response: envelopeOf(ZVoiceCapabilities), config: open },
    async () => ok(await capabilities(deps)),
  );

  getAndPost(
    app,
    { url: "/voice/quota", tags, input: z.object({}), response: envelopeOf(ZVoiceQuota) },
    async (_q, req) => ok(await voiceQuota(app.domain, userIdOf(req))),
  );

  // ── my voice ──

  app.post(
    "/voice/my_voice/create",
    { config: { multipartFiles: true }, schema: { tags, consumes: ["multipart/form-data"] } },
    async (req, reply) =>
      uploadCall(req, reply, async (dir) => {
        const userId = userIdOf(req);
        const lang = requestLang(req);
        const up = uploads(req);
        const { fields, staged, seconds } = await readVoiceUpload(up, req, dir, {
          schema: ZMyVoiceCreate,
          fileField: "file",
          rules: { kind: "media", maxBytes: SONG_MAX_BYTES, maxSeconds: SAMPLE_MAX_SECONDS, check: sampleLength },
        });
        const key = await storeUpload(up, userId, "samples", staged!);
        let kept = false;
        try {
          const { voice, created } = await createMyVoice(app.domain, userId, {
            name: fields.name,
            language: fields.language,
            sourceKey: key,
            sampleSeconds: seconds ?? 0,
            requestId: fields.requestId,
          });
          kept = created;
          if (created) await enqueueVoiceTask(withQueue, "voice", voice.id, key);
          return ok(ZMyVoice.parse(myVoiceView(voice, lang)));
        } finally {
          if (!kept) await removeFiles(files, [key], req.log);
        }
      }),
  );

  app.post(
    "/voice/my_voice/retrain",
    { config: { multipartFiles: true }, schema: { tags, consumes: ["multipart/form-data"] } },
    async (req, reply) =>
      uploadCall(req, reply, async (dir) => {
        const userId = userIdOf(req);
        const up = uploads(req);
        const { fields, staged, seconds } = await readVoiceUpload(up, req, dir, {
          schema: ZMyVoiceRetrain,
          fileField: "file",
          rules: { kind: "media", maxBytes: SONG_MAX_BYTES, maxSeconds: SAMPLE_MAX_SECONDS, check: sampleLength },
        });
        await ownMyVoice(db, userId, fields.voiceId); // another user's voice: 20003 before anything is stored
        const key = await storeUpload(up, userId, "samples", staged!);
        let kept = false;
        try {
          const result = await retrainMyVoice(app.domain, userId, fields.voiceId, {
            sourceKey: key,
            sampleSeconds: seconds ?? 0,
            requestId: fields.requestId,
          });
          kept = result.retrained;
          if (result.retrained) {
            await removeFiles(files, result.oldKeys, req.log);
            await enqueueVoiceTask(withQueue, "voice", result.voice.id, key);
          }
          return ok(myVoiceView(result.voice, requestLang(req)));
        } finally {
          if (!kept) await removeFiles(files, [key], req.log);
        }
      }),
  );

  getAndPost(
    app,
    { url: "/voice/my_voice/list", tags, input: z.object({}), response: envelopeOf(ZMyVoiceList) },
    async (_q, req) => {
      const rows = await listMyVoices(db, userIdOf(req));
      return ok({ total: rows.length, list: await myVoiceViews(db, rows, requestLang(req)) });
    },
  );

  getAndPost(
    app,
    { url: "/voice/my_voice/get", tags, input: ZMyVoiceQuery, response: envelopeOf(ZMyVoice) },
    async (q, req) => {
      const row = await ownMyVoice(db, userIdOf(req), q.voiceId);
      return ok((await myVoiceViews(db, [row], requestLang(req)))[0]!);
    },
  );

  getAndPost(
    app,
    { url: "/voice/my_voice/progress", tags, input: ZMyVoiceIds, response: envelopeOf(z.array(ZVoiceProgressItem)) },
    async (q, req) => {
      const rows = await ownMyVoices(db, userIdOf(req), q.voiceIds);
      return ok(rows.map((r) => progressItem(r, requestLang(req))));
    },
  );

  app.post(
    "/voice/my_voice/rename",
    { schema: { tags, body: ZMyVoiceRename, response: { 200: envelopeOf(ZMyVoice) } } },
    async (req) => {
      const row = await renameMyVoice(app.domain, userIdOf(req), req.body.voiceId, req.body.name);
      return ok((await myVoiceViews(db, [row], requestLang(req)))[0]!);
    },
  );

  app.post(
    "/voice/my_voice/delete",
    { schema: { tags, body: ZMyVoiceQuery, response: { 200: envelopeOf(z.object({ voiceId: z.number().int() })) } } },
    async (req) => {
      const keys = await deleteMyVoice(app.domain, userIdOf(req), req.body.voiceId);
      await removeFiles(files, keys, req.log);
      return ok({ voiceId: req.body.voiceId });
    },
  );

  for (const which of ["preview", "sample"] as const) {
    app.route({
      method: ["GET", "HEAD"],
      url: which === "preview" ? FILE_ROUTES.myVoicePreview : FILE_ROUTES.myVoiceSample,
      schema: { tags, querystring: ZMyVoiceFileQuery },
      handler: async (req, reply) => {
        const voice = await ownMyVoice(db, userIdOf(req), req.query.voiceId);
        const key = which === "preview" ? voice.previewKey : voice.sourceKey;
        const download = await serveVoiceFile(files, key, rangeRequestOf(req), {
          name: `${voice.name}-${which}`,
          etag: `${which}-${voice.id}-${voice.updatedAt.getTime()}`,
          inline: req.query.inline,
        });
        return sendDownload(reply, download);
      },
    });
  }

  // ── works: sing, convert ──

  app.post("/voice/sing/create", { config: { multipartFiles: true }, schema: { tags } }, async (req, reply) =>
    uploadCall(req, reply, async (dir) => {
      const userId = userIdOf(req);
      const lang = requestLang(req);
      const up = uploads(req);
      const { fields, staged } = await readVoiceUpload(up, req, dir, {
        schema: ZSingCreate,
        fileField: "midi",
        rules: { kind: "midi", maxBytes: MIDI_MAX_BYTES },
        optional: true,
      });
      let melody: Melody;
      let tuneId: string | null = null;
      if (staged) {
        try {
          melody = tuneFromMidi(new Uint8Array(await readFile(staged.file)));
        } catch (error) {
          if (error instanceof MidiProblem) throw new VoiceUploadRefused(MIDI_WORDS[error.problem]);
          throw error;
        }
      } else {
        const tune = BUILT_IN_TUNES.find((t) => t.id === fields.tuneId);
        if (!tune) throw AppError.invalid("tuneId", fields.tuneId ? "no such tune" : "is required");
        tuneId = tune.id;
        melody = {
          bpm: tune.bpm,
          melody: tune.melody.map((n) => ({ ...n })),
          accompaniment: tune.accompaniment.map((n) => ({ ...n })),
        };
      }
      const syllables = fitLyrics(splitLyrics(fields.lyrics, fields.language), melody.melody.length, fields.language);
      if (!syllables) {
        throw AppError.invalid("lyrics", `has more syllables than the melody has notes (${melody.melody.length})`);
      }
      if (syllables.length === 0) throw AppError.invalid("lyrics", "must not be empty");
      const voice = await chooseVoice(deps, userId, fields, fields.language);
      const inputKey = staged ? await storeUpload(up, userId, "midi", staged) : null;
      let kept = !inputKey;
      try {
        const { work, created } = await createVoiceWork(app.domain, userId, {
          kind: "sing",
          title: fields.title ?? defaultSongTitle(fields.lyrics),
          language: fields.language,
          voice: {
            promptId: voice.library.promptId,
            userVoiceId: voice.userVoiceId,
            name: voice.name,
            nameEn: voice.nameEn,
          },
          settings: {
            tuneId,
            lyrics: fields.lyrics.slice(0, LYRICS_MAX),
            keyShift: fields.keyShift,
            tempo: fields.tempo,
            bpm: melody.bpm,
            melody: transpose(melody.melody, fields.keyShift),
            accompaniment: transpose(melody.accompaniment, fields.keyShift),
            syllables,
          },
          inputKey,
          requestId: fields.requestId,
        });
        kept ||= created;
        if (created) await enqueueVoiceTask(withQueue, "work", work.id);
        return ok(ZVoiceWork.parse(workView(work, lang)));
      } finally {
        if (!kept && inputKey) await removeFiles(files, [inputKey], req.log);
      }
    }),
  );

  app.post(
    "/voice/convert/create",
    { config: { multipartFiles: true }, schema: { tags, consumes: ["multipart/form-data"] } },
    async (req, reply) =>
      uploadCall(req, reply, async (dir) => {
        const userId = userIdOf(req);
        const lang = requestLang(req);
        const up = uploads(req);
        const { fields, staged } = await readVoiceUpload(up, req, dir, {
          schema: ZConvertCreate,
          fileField: "file",
          rules: { kind: "media", maxBytes: SONG_MAX_BYTES, maxSeconds: SONG_MAX_SECONDS, check: songLength },
        });
        const voice = await chooseVoice(deps, userId, fields, lang);
        const inputKey = await storeUpload(up, userId, "songs", staged!);
        let kept = false;
        try {
          const { work, created } = await createVoiceWork(app.domain, userId, {
            kind: "convert",
            title: fields.title ?? staged!.filename.replace(/\.[^.]*$/, "").slice(0, 50),
            language: voice.library.language,
            voice: {
              promptId: voice.library.promptId,
              userVoiceId: voice.userVoiceId,
              name: voice.name,
              nameEn: voice.nameEn,
            },
            settings: { semitones: fields.semitones },
            inputKey,
            requestId: fields.requestId,
          });
          kept = created;
          if (created) await enqueueVoiceTask(withQueue, "work", work.id);
          return ok(workView(work, lang));
        } finally {
          if (!kept) await removeFiles(files, [inputKey], req.log);
        }
      }),
  );

  getAndPost(
    app,
    { url: "/voice/works/list", tags, input: ZVoiceWorkListQuery, response: envelopeOf(ZVoiceWorkList) },
    async (q, req) => {
      const { total, rows } = await listVoiceWorks(db, userIdOf(req), q);
      return ok({ total, list: rows.map((r) => workView(r, requestLang(req))) });
    },
  );

  getAndPost(
    app,
    { url: "/voice/works/progress", tags, input: ZVoiceWorkIds, response: envelopeOf(z.array(ZVoiceProgressItem)) },
    async (q, req) => {
      const rows = await ownVoiceWorks(db, userIdOf(req), q.workIds);
      return ok(rows.map((r) => progressItem(r, requestLang(req))));
    },
  );

  app.post(
    "/voice/works/rename",
    { schema: { tags, body: ZVoiceWorkRename, response: { 200: envelopeOf(ZVoiceWork) } } },
    async (req) =>
      ok(workView(await renameVoiceWork(app.domain, userIdOf(req), req.body.workId, req.body.title), requestLang(req))),
  );

  app.post(
    "/voice/works/delete",
    {
      schema: {
        tags,
        body: ZVoiceWorkIds,
        response: { 200: envelopeOf(z.object({ workIds: z.array(z.number().int()) })) },
      },
    },
    async (req) => {
      const keys = await deleteVoiceWorks(app.domain, userIdOf(req), req.body.workIds);
      await removeFiles(files, keys, req.log);
      return ok({ workIds: req.body.workIds });
    },
  );

  app.route({
    method: ["GET", "HEAD"],
    url: FILE_ROUTES.voiceWork,
    schema: { tags, querystring: ZVoiceWorkFileQuery },
    handler: async (req, reply) => {
      const work = await ownVoiceWork(db, userIdOf(req), req.query.workId);
      const part = req.query.part;
      const key =
        part === "original"
          ? work.inputKey
          : work.status === 2
            ? part === "vocals"
              ? work.vocalsKey
              : work.outputKey
            : null;
      if (part === "original" && work.kind !== "convert") throw new AppError(20003);
      const name = part === "result" ? work.title : `${work.title}-${part}`;
      const download = await serveVoiceFile(files, key, rangeRequestOf(req), {
        name,
        etag: `work-${work.id}-${part}-${work.fileSize ?? 0}`,
        inline: req.query.inline,
      });
      return sendDownload(reply, download);
    },
  });
}

/** A sung song's default title: the start of its lyrics on one line. */
function defaultSongTitle(lyrics: string): string {
  const line = lyrics.replace(/\s+/g, " ").trim();
  const chars = [...line];
  return chars.length <= 20 ? line : `${chars.slice(0, 20).join("")}…`;
}
