import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  adminPageOf,
  envelopeOf,
  ok,
  ZAdminMessageSend,
  ZAdminMessageSent,
  ZAdminSentMessage,
  ZAdminSentMessageQuery,
} from "@yuelu/contracts";
import { sendAdminMessage, sentMessages } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { actorOf } from "./actor.ts";

const tags = ["admin: messages"];

/** /voice_yuelu/admin/messages: send to everyone or one user (once per requestId), and what was sent. docs/admin.md "Messages". */
export default async function adminMessagesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;

  app.get(
    "/admin/messages",
    {
      schema: {
        tags,
        querystring: ZAdminSentMessageQuery,
        response: { 200: envelopeOf(adminPageOf(ZAdminSentMessage)) },
      },
    },
    async (req) => ok(await sentMessages(domain, req.query)),
  );
  app.post(
    "/admin/messages",
    { schema: { tags, body: ZAdminMessageSend, response: { 200: envelopeOf(ZAdminMessageSent) } } },
    async (req) => ok(await sendAdminMessage(domain, await actorOf(req), req.body)),
  );
}
