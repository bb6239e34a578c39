import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  ZMessage,
  ZMessageListQuery,
  ZReadMessageBody,
  ZReadResult,
  ZUnreadSize,
} from "@yuelu/contracts";
import { messageList, readAllMessages, readMessage, unreadCount } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { getAndPost } from "../../lib/get-and-post.ts";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";

const tags = ["messages"];

/** The message centre (spec §7 notify/*; docs/engagement.md). */
export default async function messageRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;

  getAndPost(
    app,
    { url: "/notify/get_list", tags, input: ZMessageListQuery, response: envelopeOf(z.array(ZMessage)) },
    async (query, req) => ok(await messageList(domain, userIdOf(req), query, requestLang(req))),
  );

  getAndPost(
    app,
    { url: "/notify/get_unread_size", tags, input: z.object({}), response: envelopeOf(ZUnreadSize) },
    async (_query, req) => ok({ unreadSize: await unreadCount(domain, userIdOf(req)) }),
  );

  app.post(
    "/notify/read_msg",
    { schema: { tags, body: ZReadMessageBody, response: { 200: envelopeOf(ZReadResult) } } },
    async (req) => ok(await readMessage(domain, userIdOf(req), req.body.notifyId)),
  );

  app.post("/notify/read_all_msg", { schema: { tags, response: { 200: envelopeOf(ZReadResult) } } }, async (req) =>
    ok(await readAllMessages(domain, userIdOf(req))),
  );
}
