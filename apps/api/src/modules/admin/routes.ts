import type { ZodTypeProvider } from "@fastify/type-provider-zod";
import {
  adminPageOf,
  envelopeOf,
  ok,
  StatusCode,
  ZAdminAuditEntry,
  ZAdminAuditQuery,
  ZAdminMe,
} from "@yuelu/contracts";
import { AppError, auditLog } from "@yuelu/domain";
import type { FastifyInstance } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";
import adminCatalogueRoutes from "./catalogue.ts";
import adminContentRoutes from "./content.ts";
import adminGiftsRoutes from "./gifts.ts";
import adminMessagesRoutes from "./messages.ts";
import adminOrdersRoutes from "./orders.ts";
import adminSystemRoutes from "./system.ts";
import adminUsersRoutes from "./users.ts";
import { APP_VERSION } from "./version.ts";
import adminWebhooksRoutes from "./webhooks.ts";

export const ADMIN_TAG_PREFIX = "admin";
const tags = [`${ADMIN_TAG_PREFIX}: audit`];

/**
 * The operator console's API, /voice_yuelu/admin/... (docs/admin.md). Every route registered in
 * this scope requires the admin role, whatever its own config says: the onRoute hook below forces
 * it, so a route added later cannot be left open by mistake.
 */
export default async function adminRoutes(fastify: FastifyInstance) {
  fastify.addHook("onRoute", (route) => {
    route.config = { ...(route.config ?? {}), auth: "admin" };
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps;

  app.get("/admin/me", { schema: { tags, response: { 200: envelopeOf(ZAdminMe) } } }, async (req) => {
    const user = await db.user.findUnique({ where: { id: userIdOf(req) } });
    if (!user) throw new AppError(StatusCode.AccessDenied); // the role itself was checked by requireAuth
    return ok({
      userId: user.id,
      nickName: user.nickName,
      phone: user.phone ?? "",
      role: "admin" as const,
      version: APP_VERSION,
    });
  });

  app.get(
    "/admin/audit",
    { schema: { tags, querystring: ZAdminAuditQuery, response: { 200: envelopeOf(adminPageOf(ZAdminAuditEntry)) } } },
    async (req) => ok(await auditLog(db, req.query)),
  );
  await app.register(adminCatalogueRoutes);
  await app.register(adminGiftsRoutes);
  await app.register(adminMessagesRoutes);
  await app.register(adminContentRoutes);
  await app.register(adminUsersRoutes);
  await app.register(adminOrdersRoutes);
  await app.register(adminSystemRoutes);
  await app.register(adminWebhooksRoutes);
}
