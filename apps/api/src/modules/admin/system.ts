import type { FastifyInstance } from "fastify";

/** /voice_yuelu/admin (system): see docs/admin.md. */
export default async function adminSystemRoutes(_app: FastifyInstance) {}
