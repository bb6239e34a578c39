import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  envelopeOf,
  ok,
  ZAdminBeanPage,
  ZAdminBeanQuery,
  ZAdminGrantBody,
  ZAdminGrantResult,
  ZAdminUserDetail,
  ZAdminUserPage,
  ZAdminUserParams,
  ZAdminUserQuery,
  ZAdminUserStatusBody,
  ZAdminUserStatusResult,
} from "@yuelu/contracts";
import { adminBeanLedger, adminUserDetail, adminUsers, grantToUser, setUserDisabled } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { requestLang } from "../../lib/lang.ts";
import { actorOf } from "./actor.ts";

const tags = ["admin: users"];

/** /voice_yuelu/admin (users): search, one user, bean ledger, grants, disable/enable (docs/admin.md "Users"). */
export default async function adminUsersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const domain = app.domain;

  app.get(
    "/admin/users",
    { schema: { tags, querystring: ZAdminUserQuery, response: { 200: envelopeOf(ZAdminUserPage) } } },
    async (req) => ok(await adminUsers(domain, req.query)),
  );

  app.get(
    "/admin/users/:userId",
    { schema: { tags, params: ZAdminUserParams, response: { 200: envelopeOf(ZAdminUserDetail) } } },
    async (req) => ok(await adminUserDetail(domain, req.params.userId, requestLang(req))),
  );

  app.get(
    "/admin/users/:userId/beans",
    {
      schema: {
        tags,
        params: ZAdminUserParams,
        querystring: ZAdminBeanQuery,
        response: { 200: envelopeOf(ZAdminBeanPage) },
      },
    },
    async (req) => ok(await adminBeanLedger(domain.db, req.params.userId, req.query)),
  );

  app.post(
    "/admin/users/:userId/grants",
    {
      schema: {
        tags,
        params: ZAdminUserParams,
        body: ZAdminGrantBody,
        response: { 200: envelopeOf(ZAdminGrantResult) },
      },
    },
    async (req) => ok(await grantToUser(domain, await actorOf(req), req.params.userId, req.body)),
  );

  for (const action of ["disable", "enable"] as const) {
    app.post(
      `/admin/users/:userId/${action}`,
      {
        schema: {
          tags,
          params: ZAdminUserParams,
          body: ZAdminUserStatusBody,
          response: { 200: envelopeOf(ZAdminUserStatusResult) },
        },
      },
      async (req) =>
        ok(await setUserDisabled(domain, await actorOf(req), req.params.userId, action === "disable", req.body.reason)),
    );
  }
}
