import type { FastifyInstance } from "fastify";

/** /voice_yuelu/admin (catalogue): see docs/admin.md. */
export default async function adminCatalogueRoutes(_app: FastifyInstance) {}
