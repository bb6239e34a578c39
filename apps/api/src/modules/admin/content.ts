import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  adminPageOf,
  envelopeOf,
  ok,
  ZAdminContentIdParams,
  ZAdminFeedback,
  ZAdminFeedbackHandle,
  ZAdminFeedbackImageParams,
  ZAdminFeedbackQuery,
  ZAdminFeedbackReplied,
  ZAdminFeedbackReply,
  ZAdminHelpCreate,
  ZAdminHelpDeleted,
  ZAdminHelpDoc,
  ZAdminHelpEdit,
  ZAdminHelpQuery,
} from "@yuelu/contracts";
import {
  createHelpDoc,
  deleteHelpDoc,
  editHelpDoc,
  feedbackImageKey,
  feedbackItem,
  feedbackList,
  helpDoc,
  helpDocs,
  markFeedbackHandled,
  replyFeedback,
} from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { imageMime } from "../../lib/images.ts";
import { rangeRequestOf, sendDownload, serveStored } from "../../lib/stored-file.ts";
import { actorOf } from "./actor.ts";

const tags = ["admin: help & feedback"];

/**
 * /voice_yuelu/admin/help (help documents: list, one, create, edit, delete) and
 * /voice_yuelu/admin/feedback (list, one, its screenshots, handled, reply). docs/admin.md.
 */
export default async function adminContentRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;
  const { files } = app.deps;

  app.get(
    "/admin/help",
    { schema: { tags, querystring: ZAdminHelpQuery, response: { 200: envelopeOf(adminPageOf(ZAdminHelpDoc)) } } },
    async (req) => ok(await helpDocs(domain, req.query)),
  );
  app.post(
    "/admin/help",
    { schema: { tags, body: ZAdminHelpCreate, response: { 200: envelopeOf(ZAdminHelpDoc) } } },
    async (req) => ok(await createHelpDoc(domain, await actorOf(req), req.body)),
  );
  app.get(
    "/admin/help/:id",
    { schema: { tags, params: ZAdminContentIdParams, response: { 200: envelopeOf(ZAdminHelpDoc) } } },
    async (req) => ok(await helpDoc(domain, req.params.id)),
  );
  app.patch(
    "/admin/help/:id",
    {
      schema: {
        tags,
        params: ZAdminContentIdParams,
        body: ZAdminHelpEdit,
        response: { 200: envelopeOf(ZAdminHelpDoc) },
      },
    },
    async (req) => ok(await editHelpDoc(domain, await actorOf(req), req.params.id, req.body)),
  );
  app.delete(
    "/admin/help/:id",
    { schema: { tags, params: ZAdminContentIdParams, response: { 200: envelopeOf(ZAdminHelpDeleted) } } },
    async (req) => ok(await deleteHelpDoc(domain, await actorOf(req), req.params.id)),
  );

  app.get(
    "/admin/feedback",
    { schema: { tags, querystring: ZAdminFeedbackQuery, response: { 200: envelopeOf(adminPageOf(ZAdminFeedback)) } } },
    async (req) => ok(await feedbackList(domain, req.query)),
  );
  app.get(
    "/admin/feedback/:id",
    { schema: { tags, params: ZAdminContentIdParams, response: { 200: envelopeOf(ZAdminFeedback) } } },
    async (req) => ok(await feedbackItem(domain, req.params.id)),
  );
  // A screenshot itself (not the envelope): only operators reach it; no user call serves feedback images.
  app.get(
    "/admin/feedback/:id/images/:index",
    {
      schema: {
        tags,
        params: ZAdminFeedbackImageParams,
        produces: ["image/png", "image/jpeg", "image/webp", "image/gif"],
      },
    },
    async (req, reply) => {
      const key = await feedbackImageKey(domain, req.params.id, req.params.index);
      const download = await serveStored(files, key, rangeRequestOf(req), {
        "content-type": imageMime(key.slice(key.lastIndexOf(".") + 1)) ?? "application/octet-stream",
        "cache-control": "private, max-age=300",
        "x-content-type-options": "nosniff",
      });
      return sendDownload(reply, download);
    },
  );
  app.post(
    "/admin/feedback/:id/handle",
    {
      schema: {
        tags,
        params: ZAdminContentIdParams,
        body: ZAdminFeedbackHandle,
        response: { 200: envelopeOf(ZAdminFeedback) },
      },
    },
    async (req) => ok(await markFeedbackHandled(domain, await actorOf(req), req.params.id, req.body.handled)),
  );
  app.post(
    "/admin/feedback/:id/reply",
    {
      schema: {
        tags,
        params: ZAdminContentIdParams,
        body: ZAdminFeedbackReply,
        response: { 200: envelopeOf(ZAdminFeedbackReplied) },
      },
    },
    async (req) => ok(await replyFeedback(domain, await actorOf(req), req.params.id, req.body)),
  );
}
