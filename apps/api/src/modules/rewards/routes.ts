import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import { envelopeOf, ok, SignCheck, ZCheckInInfo, ZSignResult } from "@yuelu/contracts";
import type { FastifyInstance } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";
import * as checkin from "./checkin.ts";

const tags = ["rewards"];

/** Daily check-in (spec §7 store/sign_info, store/sign). */
export default async function rewardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.deps;

  for (const method of ["GET", "POST"] as const) {
    app.route({
      method,
      url: "/api/v1/store/sign_info",
      schema: { tags, response: { 200: envelopeOf(ZCheckInInfo) } },
      handler: async (req) => ok(await checkin.signInfo(db, config.BUSINESS_TZ, userIdOf(req))),
    });
  }

  app.post("/api/v1/store/sign", { schema: { tags, response: { 200: envelopeOf(ZSignResult) } } }, async (req) => {
    const result = await checkin.sign(db, config.BUSINESS_TZ, userIdOf(req));
    if (result.signCheck === SignCheck.Success) await app.invalidate.user(userIdOf(req)); // beanBalance changed
    return ok(result);
  });
}
