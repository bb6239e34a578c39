import { API_KEY_SCOPES, type Scope } from "@yuelu/contracts";
import { apiKeyHash } from "@yuelu/domain";
import type { HotSql } from "@yuelu/runtime";
import type { FastifyRequest } from "fastify";
import type { SessionUser } from "./sessions.ts";

/** The key of an `Authorization: Bearer <key>` header; undefined when there is no such header. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  // "Bearer" with nothing after it (proxies trim the space) is still an attempt: it names no key
  const match = /^Bearer(?:\s+(\S*))?\s*$/i.exec(header);
  return match ? (match[1] ?? "") : undefined;
}

interface KeyRow {
  key_id: number;
  user_id: number;
  nick_name: string;
  delete_requested_at: Date | null;
  role: string;
  last_used_at: Date | null;
  scopes: string[];
}

// Read on every Bearer request, never cached: a revoked key stops at once, on every node.
const FIND_KEY = `
  SELECT k.id AS key_id, k."userId" AS user_id, k."lastUsedAt" AS last_used_at, k.scopes,
         u."nickName" AS nick_name, u."deleteRequestedAt" AS delete_requested_at, u.role
  FROM api_keys k JOIN users u ON u.id = k."userId"
  WHERE k."keyHash" = $1 AND k."revokedAt" IS NULL AND u."deletedAt" IS NULL AND u."disabledAt" IS NULL`;

const TOUCH_EVERY_MS = 60_000;

/**
 * The user an API key acts for, as a session-shaped caller so every route's checks (ownership,
 * quotas, pending deletion) apply unchanged, and what the key may do; null for an unknown, revoked or
 * malformed key.
 */
export async function apiKeySession(
  sql: HotSql,
  key: string,
  now = Date.now(),
): Promise<{ session: SessionUser; keyId: number; scopes: Scope[] } | null> {
  if (key.length < 10 || key.length > 200) return null;
  const [row] = await sql.query<KeyRow>("find-api-key", FIND_KEY, [apiKeyHash(key)]);
  if (!row) return null;
  if (!row.last_used_at || now - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
    // best effort, at most once a minute: the list shows when a key was last used
    sql.exec('UPDATE api_keys SET "lastUsedAt" = now() WHERE id = $1', [row.key_id]);
  }
  return {
    keyId: row.key_id,
    scopes: keyScopes(row.scopes),
    session: {
      sessionId: `api-key:${row.key_id}`,
      userId: row.user_id,
      nickName: row.nick_name,
      deleteRequestedAt: row.delete_requested_at,
      role: row.role,
      expiresAt: Number.POSITIVE_INFINITY,
    },
  };
}

/** A key's scopes as stored, kept to those a key may hold (a row written by hand cannot grant more). */
function keyScopes(stored: string[] | null): Scope[] {
  return API_KEY_SCOPES.filter((scope) => stored?.includes(scope));
}
