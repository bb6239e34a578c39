import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  ZSampleQuery,
  ZSelectOptions,
  ZSoundList,
  ZSoundListQuery,
  ZStartTtsBody,
  ZTryListen,
  ZTryListenQuery,
  ZTtsDeleteBody,
  ZTtsDeleted,
  ZTtsDownloadQuery,
  ZTtsList,
  ZTtsListQuery,
  ZTtsProgressItem,
  ZTtsProgressQuery,
  ZTtsQuota,
  ZTtsRenameBody,
  ZTtsTask,
  ZTtsTaskQuery,
} from "@yuelu/contracts";
import { deleteTtsTasks, listTtsTasks, ownTtsTask, renameTtsTask, requestSynthesis, ttsQuota } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { FILE_ROUTES } from "../../lib/file-urls.ts";
import { getAndPost } from "../../lib/get-and-post.ts";
import { requestLang } from "../../lib/lang.ts";
import { rangeRequestOf, sendDownload } from "../../lib/stored-file.ts";
import { userIdOf } from "../../plugins/auth.ts";
import {
  assertSpeakable,
  myVoiceFor,
  openSample,
  openWork,
  selectOptions,
  soundList,
  taskView,
  tryListen,
  ttsProgress,
  ttsQueue,
  voiceFor,
  workView,
} from "./service.ts";

const tags = ["tts"];

/** Text to speech and the voice library (docs/tts.md; spec §7 "Text to speech"). */
export default async function ttsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const { db, files } = deps;
  const enqueue = ttsQueue(deps.queues);
  const open = { auth: "public" as const };

  // ── the voice library (public: the catalogue) ──

  getAndPost(
    app,
    {
      url: "/new_tts/labs/get_sound_list",
      tags,
      input: ZSoundListQuery,
      response: envelopeOf(ZSoundList),
      config: open,
    },
    async (query, req) => ok(await soundList(deps, query, requestLang(req))),
  );

  getAndPost(
    app,
    {
      url: "/new_tts/labs/select_options",
      tags,
      input: z.object({}),
      response: envelopeOf(ZSelectOptions),
      config: open,
    },
    async (_query, req) => ok(await selectOptions(deps, requestLang(req))),
  );

  getAndPost(
    app,
    { url: "/new_tts/labs/try_listen", tags, input: ZTryListenQuery, response: envelopeOf(ZTryListen), config: open },
    async (query, req) => ok(await tryListen(deps, query.promptId, requestLang(req))),
  );

  app.route({
    method: ["GET", "HEAD"],
    url: FILE_ROUTES.voiceSample,
    config: open,
    schema: { tags, querystring: ZSampleQuery, produces: ["audio/mpeg"] },
    handler: async (req, reply) => sendDownload(reply, await openSample(deps, req.query, rangeRequestOf(req))),
  });

  // ── synthesis and 'my works' (signed in) ──

  app.post(
    "/tts/start_tts",
    { schema: { tags, body: ZStartTtsBody, response: { 200: envelopeOf(ZTtsTask) } } },
    async (req) => {
      const lang = requestLang(req);
      const userId = userIdOf(req);
      const { text, promptId, myVoiceId, ...settings } = req.body;
      const mine = myVoiceId !== undefined ? await myVoiceFor(deps, userId, myVoiceId, text) : undefined;
      const voice = mine?.voice ?? (await voiceFor(deps, promptId, text));
      await assertSpeakable(deps, voice, lang);
      const request = { text, voice, ...settings, ...(mine ? { userVoice: mine.userVoice } : {}) };
      const taskId = await requestSynthesis(app.domain, userId, request, enqueue);
      return ok(taskView(await ownTtsTask(db, userId, taskId), lang));
    },
  );

  getAndPost(
    app,
    { url: "/tts/get_progress", tags, input: ZTtsProgressQuery, response: envelopeOf(z.array(ZTtsProgressItem)) },
    async (query, req) => ok(await ttsProgress(db, userIdOf(req), query.taskIds, requestLang(req))),
  );

  getAndPost(
    app,
    { url: "/tts/task_list", tags, input: ZTtsListQuery, response: envelopeOf(ZTtsList) },
    async (query, req) => {
      const lang = requestLang(req);
      const { total, rows } = await listTtsTasks(db, userIdOf(req), query);
      return ok({ total, list: rows.map((row) => workView(row, lang)) });
    },
  );

  getAndPost(
    app,
    { url: "/tts/get_task", tags, input: ZTtsTaskQuery, response: envelopeOf(ZTtsTask) },
    async (query, req) => ok(taskView(await ownTtsTask(db, userIdOf(req), query.taskId), requestLang(req))),
  );

  app.post(
    "/tts/rename",
    { schema: { tags, body: ZTtsRenameBody, response: { 200: envelopeOf(ZTtsTask) } } },
    async (req) => {
      const task = await renameTtsTask(app.domain, userIdOf(req), req.body.taskId, req.body.title);
      return ok(taskView(task, requestLang(req)));
    },
  );

  app.post(
    "/tts/delete",
    { schema: { tags, body: ZTtsDeleteBody, response: { 200: envelopeOf(ZTtsDeleted) } } },
    async (req) => ok({ taskIds: await deleteTtsTasks(app.domain, userIdOf(req), req.body.taskIds) }),
  );

  getAndPost(
    app,
    { url: "/tts/quota", tags, input: z.object({}), response: envelopeOf(ZTtsQuota) },
    async (_query, req) => ok(await ttsQuota(app.domain, userIdOf(req))),
  );

  // HEAD answers the headers without opening the file.
  app.route({
    method: ["GET", "HEAD"],
    url: FILE_ROUTES.ttsWork,
    schema: { tags, querystring: ZTtsDownloadQuery, produces: ["audio/mpeg", "audio/wav"] },
    handler: async (req, reply) =>
      sendDownload(reply, await openWork({ db, files }, userIdOf(req), req.query, rangeRequestOf(req))),
  });
}
