import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  AVATAR_IMAGE_BYTES,
  envelopeOf,
  ok,
  ZAssets,
  ZCheckLogin,
  ZDeleteAccountStatus,
  ZInfoCollect,
  ZLastLogin,
  ZMenuItem,
  ZStorageInfo,
  ZStorageInfoQuery,
  ZUpdateInfoCollectBody,
  ZUpdateUserInfoBody,
  ZUserInfo,
  ZVirtualLogin,
  ZVirtualLoginQuery,
} from "@yuelu/contracts";
import {
  assetsOf,
  avatarExtension,
  avatarKey,
  cancelDeletion,
  deletionStatus,
  requestDeletion,
  storageInfo,
  updateProfile,
  updateSurvey,
  ZERO_STORAGE,
} from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { imageMime } from "../../lib/images.ts";
import { requestLang } from "../../lib/lang.ts";
import { userIdOf } from "../../plugins/auth.ts";
import { uploadAvatar } from "./avatar.ts";
import * as user from "./service.ts";

const tags = ["user"];

export default async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, sql, limiter } = app.deps;
  const domain = app.domain;
  const userInfo = (userId: number) => app.userInfoCache.get(userId, () => user.getUserInfo(sql, userId));

  // Every page load asks: a cached answer goes out at once, without a promise (bench/README.md "The hot path").
  app.get("/api/v1/user/info", { schema: { tags, response: { 200: envelopeOf(ZUserInfo) } } }, (req) => {
    const userId = userIdOf(req);
    const cached = app.userInfoCache.peek(userId);
    return cached ? ok(cached) : userInfo(userId).then(ok);
  });

  app.post(
    "/api/v1/user/update_info",
    { schema: { tags, body: ZUpdateUserInfoBody, response: { 200: envelopeOf(ZUserInfo) } } },
    async (req) => {
      await updateProfile(domain, userIdOf(req), req.body);
      return ok(await userInfo(userIdOf(req)));
    },
  );

  app.post(
    "/api/v1/user/upload_photo",
    {
      config: { multipartFiles: true, maxBody: AVATAR_IMAGE_BYTES + 1024 * 1024 },
      schema: { tags, consumes: ["multipart/form-data"], response: { 200: envelopeOf(ZUserInfo) } },
    },
    async (req) => {
      await uploadAvatar(domain, app.deps.files, req, userIdOf(req));
      return ok(await userInfo(userIdOf(req)));
    },
  );

  app.get(
    "/api/v1/user/photo/:name",
    { config: { auth: "public" }, schema: { tags, params: z.object({ name: z.string().max(64) }) } },
    async (req, reply) => {
      const { name } = req.params;
      const ext = avatarExtension(name);
      if (!ext || (await app.deps.files.size(avatarKey(name))) === null) return reply.code(404).send();
      return reply
        .header("content-type", imageMime(ext))
        .header("cache-control", "public, max-age=31536000, immutable")
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'")
        .send(await app.deps.files.read(avatarKey(name)));
    },
  );

  app.get(
    "/api/v1/user/storage_info",
    {
      config: { auth: "public" },
      schema: { tags, querystring: ZStorageInfoQuery, response: { 200: envelopeOf(ZStorageInfo) } },
    },
    // Anonymous visitors (and a userId that is not the caller's) get zero storage info (spec §3).
    async (req) => {
      const session = req.session;
      if (!session || session.deleteRequestedAt) return ok(ZERO_STORAGE);
      if (req.query.userId !== undefined && req.query.userId !== session.userId) return ok(ZERO_STORAGE);
      return ok(await storageInfo(domain, session.userId));
    },
  );

  for (const method of ["GET", "POST"] as const) {
    app.route({
      method,
      url: "/api/v1/store/get_asset",
      schema: { tags, response: { 200: envelopeOf(ZAssets) } },
      handler: async (req) => ok(await assetsOf(domain, userIdOf(req))),
    });
    app.route({
      method,
      url: "/api/v3/user/delete_account_status",
      config: { auth: "deleting" },
      schema: { tags, response: { 200: envelopeOf(ZDeleteAccountStatus) } },
      handler: async (req) => ok(await deletionStatus(domain, userIdOf(req))),
    });
  }

  app.post(
    "/api/v3/user/delete_account",
    { schema: { tags, response: { 200: envelopeOf(ZDeleteAccountStatus) } } },
    async (req) => ok(await requestDeletion(domain, userIdOf(req))),
  );

  app.post(
    "/api/v3/user/cancel_delete_account",
    { config: { auth: "deleting" }, schema: { tags, response: { 200: envelopeOf(ZDeleteAccountStatus) } } },
    async (req) => ok(await cancelDeletion(domain, userIdOf(req))),
  );

  app.get(
    "/api/v1/user/check_login",
    { config: { auth: "public" }, schema: { tags, response: { 200: envelopeOf(ZCheckLogin) } } },
    async (req) => ok({ login: Boolean(req.session && !req.session.deleteRequestedAt) }),
  );

  app.post(
    "/api/v1/user/login/last_time",
    { schema: { tags, response: { 200: envelopeOf(ZLastLogin) } } },
    async (req) => ok(await user.touchLastLogin(db, userIdOf(req))),
  );

  app.get(
    "/api/v3/user/virtual_login",
    {
      config: { auth: "public" },
      schema: { tags, querystring: ZVirtualLoginQuery, response: { 200: envelopeOf(ZVirtualLogin) } },
    },
    async (req) => ok(await user.virtualLogin(db, limiter, req.query.tempCode, req.ip)),
  );

  app.get(
    "/api/v1/info_collect",
    { config: { auth: "public" }, schema: { tags: ["survey"], response: { 200: envelopeOf(ZInfoCollect) } } },
    async (req) => ok(await user.surveyOptions(db, requestLang(req))),
  );

  app.post(
    "/api/v1/update_info_collect",
    {
      schema: {
        tags: ["survey"],
        body: ZUpdateInfoCollectBody,
        response: {
          200: envelopeOf(
            z.object({ infoCollectIdentity: z.string().nullable(), infoCollectChannel: z.string().nullable() }),
          ),
        },
      },
    },
    async (req) => ok(await updateSurvey(domain, userIdOf(req), req.body)),
  );

  app.get(
    "/api/v2/menu/sound_list",
    { schema: { tags: ["records"], response: { 200: envelopeOf(z.array(ZMenuItem)) } } },
    async (req) => ok(await user.folderList(db, userIdOf(req))),
  );
}
