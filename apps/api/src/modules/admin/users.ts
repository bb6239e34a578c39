import type { FastifyInstance } from "fastify";

/** /voice_yuelu/admin (users): see docs/admin.md. */
export default async function adminUsersRoutes(_app: FastifyInstance) {}
