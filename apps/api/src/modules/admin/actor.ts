import type { AdminActor } from "@yuelu/domain";
import type { FastifyRequest } from "fastify";
import { userIdOf } from "../../plugins/auth.ts";

/** The operator behind a console request, as the audit log records them. */
export async function actorOf(request: FastifyRequest): Promise<AdminActor> {
  const id = userIdOf(request);
  const user = await request.server.deps.db.user.findUnique({ where: { id }, select: { phone: true } });
  return {
    id,
    phone: user?.phone ?? "",
    ip: request.ip,
    userAgent: String(request.headers["user-agent"] ?? ""),
  };
}
