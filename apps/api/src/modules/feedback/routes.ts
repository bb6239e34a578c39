import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  FEEDBACK_IMAGE_BYTES,
  FEEDBACK_IMAGES_MAX,
  ok,
  StatusCode,
  ZFeedbackCategory,
  ZFeedbackResult,
} from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { requestLang } from "../../lib/lang.ts";
import { addFeedback, categories } from "./service.ts";

const tags = ["feedback"];

/** Reports one address may send per hour (the help page is open to visitors who cannot sign in). */
const FEEDBACK_PER_IP_HOUR = 10;

/** Feedback (spec §7: GET /feedback/get_question_category, POST feedback/add). */
export default async function feedbackRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, files, limiter } = app.deps;

  app.get(
    "/feedback/get_question_category",
    { config: { auth: "public" }, schema: { tags, response: { 200: envelopeOf(z.array(ZFeedbackCategory)) } } },
    async (req) => ok(await categories(db, requestLang(req))),
  );

  app.post(
    "/feedback/add",
    {
      config: {
        auth: "public",
        multipartFiles: true,
        maxBody: FEEDBACK_IMAGES_MAX * FEEDBACK_IMAGE_BYTES + 1024 * 1024,
      },
      schema: {
        tags,
        consumes: ["multipart/form-data", "application/json"],
        response: { 200: envelopeOf(ZFeedbackResult) },
      },
    },
    async (req) => {
      if (!(await limiter.hit(`feedback:ip:${req.ip}`, FEEDBACK_PER_IP_HOUR, 3600))) {
        throw new AppError(StatusCode.TooManyRequests, {}, 429);
      }
      const userId = req.session && !req.session.deleteRequestedAt ? req.session.userId : null;
      return ok(await addFeedback({ db, files }, req, userId));
    },
  );
}
