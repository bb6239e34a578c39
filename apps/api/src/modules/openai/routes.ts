import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  type Lang,
  OPENAI_SPEECH_FORMATS,
  StatusCode,
  ZModelParams,
  ZOpenAiError,
  ZOpenAiModel,
  ZOpenAiModelList,
  ZSpeechBody,
  ZTranscriptionFormDoc,
  ZTranscriptionJson,
  ZVerboseTranscription,
} from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from "fastify";
import { z } from "zod";
import { askedLang, requestLang } from "../../lib/lang.ts";
import { bearerToken } from "../account/api-key-auth.ts";
import { transcriptionQueue } from "../dictation/service.ts";
import { announcesOversizedBody, UploadRefused } from "../records/upload.ts";
import { ttsQueue } from "../tts/service.ts";
import type { OpenAiDeps } from "./deps.ts";
import { OpenAiFailure, sendOpenAiError } from "./errors.ts";
import { modelList } from "./models.ts";
import { synthesizeSpeech } from "./speech.ts";
import { TaskWaits } from "./task-waits.ts";
import { SPEECH_CONTENT_TYPES } from "./transcode.ts";
import { transcribeUpload } from "./transcriptions.ts";

const tags = ["openai-compatible"];
const errors = Object.fromEntries([400, 401, 403, 404, 413, 429, 500, 503].map((s) => [s, ZOpenAiError]));

const NO_KEY: Record<Lang, string> = {
  zh: "未提供 API 密钥：请在请求头中发送 Authorization: Bearer <密钥>（在网页版“设置 → API 密钥”中创建）。",
  en: "No API key provided. Send it as Authorization: Bearer <key> (make one in the web app: Settings → API keys).",
};
const BAD_KEY: Record<Lang, string> = {
  zh: "API 密钥无效：它不存在或已被撤销。",
  en: "Incorrect API key provided: it is unknown or has been revoked.",
};

/**
 * Every /v1 call acts for a user: an API key (Authorization: Bearer), or a signed-in browser session.
 * Messages default to English here (integrators' scripts), unless the request names a language.
 */
async function requireCaller(request: FastifyRequest) {
  request.lang = askedLang(request) ?? "en";
  if (!request.session) {
    const message = bearerToken(request) === undefined ? NO_KEY : BAD_KEY;
    throw new OpenAiFailure(401, StatusCode.NotLoggedIn, message[requestLang(request)]);
  }
  if (request.session.deleteRequestedAt) throw new AppError(StatusCode.UserDeleted);
}

/** Aborts when the client goes away before its answer is written (the work it started goes on). */
function clientLeft(reply: FastifyReply): AbortSignal {
  const left = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) left.abort();
  });
  return left.signal;
}

/**
 * Sends a body the response schemas do not describe byte for byte: text formats, pre-serialised JSON,
 * audio. (The schemas document the answers; strings and files are never re-serialised.)
 */
function sendAs(reply: FastifyReply, status: number, headers: Record<string, string>, body: unknown) {
  return reply
    .code(status)
    .headers(headers)
    .send(body ?? undefined);
}

/** The transcription form is read and checked by the route itself, as its file streams in (held-form.ts). */
const formCheckedByRoute: FastifySchemaCompiler<unknown> = () => (value) => ({ value });

/**
 * OpenAI-compatible speech endpoints at /v1 (docs/integrators.md), beside /voice_yuelu: the same
 * users, records, works, quotas and charges, in OpenAI's request and error shapes.
 */
export default async function openAiRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps: OpenAiDeps = {
    ...app.deps,
    domain: app.domain,
    enqueueTranscription: transcriptionQueue(app.deps.queues),
    enqueueSynthesis: ttsQueue(app.deps.queues),
    waits: new TaskWaits(app.deps.events),
  };
  app.setErrorHandler(sendOpenAiError);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    sendOpenAiError(new OpenAiFailure(404, 404, `Unknown request URL: ${request.method} ${path}.`), request, reply);
  });
  app.addHook("onRequest", requireCaller);

  app.post(
    "/audio/transcriptions",
    {
      config: { multipartFiles: true },
      validatorCompiler: formCheckedByRoute,
      schema: {
        tags,
        summary: "Transcribe a recording (OpenAI's audio.transcriptions)",
        description:
          "The file becomes a record in the user's account, transcribed and charged as the web app's upload + dictation. " +
          "response_format json (default), text, srt, vtt or verbose_json (segments; words with timestamp_granularities[]=word).",
        consumes: ["multipart/form-data"],
        body: ZTranscriptionFormDoc,
        produces: ["application/json", "text/plain", "application/x-subrip", "text/vtt"],
        response: { 200: z.union([ZVerboseTranscription, ZTranscriptionJson]), ...errors },
      },
    },
    async (req, reply) => {
      if (announcesOversizedBody(req)) {
        reply.header("connection", "close"); // do not read the rest of a huge body
        throw new UploadRefused("too_large");
      }
      const rendered = await transcribeUpload(deps, req, clientLeft(reply));
      return sendAs(reply, 200, { "content-type": rendered.contentType }, rendered.body);
    },
  );

  app.post(
    "/audio/speech",
    {
      schema: {
        tags,
        summary: "Synthesise speech (OpenAI's audio.speech)",
        description:
          "A text-to-speech work in the user's account, charged against the TTS quota; answers the audio. " +
          "voice: an OpenAI voice name (mapped to library voices), a library voice (promptId or name), or my:<id>.",
        body: ZSpeechBody,
        produces: OPENAI_SPEECH_FORMATS.map((f) => SPEECH_CONTENT_TYPES[f]),
        response: errors,
      },
    },
    async (req, reply) => {
      const answer = await synthesizeSpeech(deps, req, req.body, clientLeft(reply));
      return sendAs(reply, answer.status, answer.headers, answer.body);
    },
  );

  app.get(
    "/models",
    {
      schema: {
        tags,
        summary: "The models (engines) this install has",
        response: { 200: ZOpenAiModelList, ...errors },
      },
    },
    async () => modelList(deps),
  );

  app.get(
    "/models/:model",
    { schema: { tags, params: ZModelParams, response: { 200: ZOpenAiModel, ...errors } } },
    async (req) => {
      const found = (await modelList(deps)).data.find((m) => m.id === req.params.model);
      if (!found) throw new OpenAiFailure(404, 404, `The model '${req.params.model}' does not exist here.`, "model");
      return found;
    },
  );
}
