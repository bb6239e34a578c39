import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import { envelopeOf, ok, ZCheckInInfo, ZSignResult } from "@yuelu/contracts";
import { sign, signInfo } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";

const tags = ["rewards"];

/** Daily check-in (spec §7 store/sign_info, store/sign). */
export default async function rewardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  for (const method of ["GET", "POST"] as const) {
    app.route({
      method,
      url: "/api/v1/store/sign_info",
      schema: { tags, response: { 200: envelopeOf(ZCheckInInfo) } },
      handler: async (req) => ok(await signInfo(app.domain, userIdOf(req))),
    });
  }

  app.post("/api/v1/store/sign", { schema: { tags, response: { 200: envelopeOf(ZSignResult) } } }, async (req) =>
    ok(await sign(app.domain, userIdOf(req))),
  );
}
