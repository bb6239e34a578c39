/**
 * True when an error says a backing service (PostgreSQL, Redis) cannot be reached right now — a
 * restart, a failover, a network cut — rather than that the request or the code is wrong. Such a
 * request is answered 503 with Retry-After (the client may try again shortly), never a 500.
 */
export function backendUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { name, code, message } = e as { name?: string; code?: string; message?: string };
    if (name === "PrismaClientInitializationError") return true;
    // Prisma: can't reach / timed out / closed / pool exhausted; pg: the server is shutting down,
    // starting up, or the connection broke; node: the socket could not be made.
    if (code && UNAVAILABLE_CODES.has(code)) return true;
    if (name === "MaxRetriesPerRequestError") return true; // ioredis while Redis is away
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

const UNAVAILABLE_CODES = new Set([
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
]);

const UNAVAILABLE_MESSAGES = [
  "Can't reach database server",
  "Connection terminated",
  "Connection is closed",
  "the database system is shutting down",
  "the database system is starting up",
  "terminating connection due to administrator command",
];
