import type { FastifyInstance } from "fastify";
import { requireAuth } from "../plugins/auth.ts";
import adminRoutes from "./admin/routes.ts";
import apiKeyRoutes from "./api-keys/routes.ts";
import clipRoutes from "./clips/routes.ts";
import contentRoutes from "./content/routes.ts";
import dictationRoutes from "./dictation/routes.ts";
import feedbackRoutes from "./feedback/routes.ts";
import helpRoutes from "./help/routes.ts";
import liveRoutes from "./live/routes.ts";
import messageRoutes from "./messages/routes.ts";
import notesRoutes from "./notes/routes.ts";
import paymentRoutes from "./payments/routes.ts";
import peopleRoutes from "./people/routes.ts";
import recordsRoutes from "./records/routes.ts";
import rewardRoutes from "./rewards/routes.ts";
import satisfactionRoutes from "./satisfaction/routes.ts";
import searchRoutes from "./search/routes.ts";
import shareRoutes from "./share/routes.ts";
import transcriptRoutes from "./transcript/routes.ts";
import ttsRoutes from "./tts/routes.ts";
import userRoutes from "./user/routes.ts";
import voiceRoutes from "./voice/routes.ts";
import webhookRoutes from "./webhooks/routes.ts";

/**
 * The /voice_yuelu API (spec §7). Every route here requires a signed-in user unless its
 * `config.auth` says otherwise.
 */
export default async function voiceYuelu(app: FastifyInstance) {
  // onRequest, so a missing session is reported before any parameter is validated.
  app.addHook("onRequest", requireAuth);
  await app.register(userRoutes);
  await app.register(contentRoutes);
  await app.register(rewardRoutes);
  await app.register(helpRoutes);
  await app.register(feedbackRoutes);
  await app.register(messageRoutes);
  await app.register(recordsRoutes);
  await app.register(dictationRoutes);
  await app.register(transcriptRoutes);
  await app.register(notesRoutes);
  await app.register(satisfactionRoutes);
  await app.register(paymentRoutes);
  await app.register(ttsRoutes);
  await app.register(voiceRoutes);
  await app.register(apiKeyRoutes);
  await app.register(webhookRoutes);
  // live captions while recording (docs/live.md): a WebSocket relayed to a worker
  await app.register(liveRoutes);
  // share links (docs/share.md); their public pages are outside /voice_yuelu (app.ts)
  await app.register(shareRoutes);
  // clips cut by selecting words (docs/clips.md)
  await app.register(clipRoutes);
  // people: speakers recognised across recordings (docs/people.md)
  await app.register(peopleRoutes);
  await app.register(searchRoutes);
  // the operator console (docs/admin.md): admin role only
  await app.register(adminRoutes);
}
