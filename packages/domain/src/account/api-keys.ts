import { createHash, randomBytes } from "node:crypto";
import { API_KEY_SCOPES, API_KEYS_MAX, type ApiKey, type ApiKeyCreated, StatusCode } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { transact } from "../transaction.ts";

/**
 * API keys (docs/integrators.md). A key is "yl_" + 32 random bytes (base64url): guessing one is
 * hopeless, so a plain SHA-256 is the right hash (a slow password hash would only slow every call).
 */

type Ctx = Pick<DomainContext, "db" | "events">;

export const API_KEY_PREFIX = "yl_";

export function apiKeyHash(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/**
 * Creates a key holding API_KEY_SCOPES (never key management: docs/integrators.md); the 11th live key of a
 * user is refused (50006), counted under the user's row lock.
 */
export async function createApiKey(ctx: Ctx, userId: number, name: string): Promise<ApiKeyCreated> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return transact(ctx, async (tx) => {
    // parallel creates queue here, so each counts the others' keys before it compares
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::int FOR UPDATE`;
    const live = await tx.apiKey.count({ where: { userId, revokedAt: null } });
    if (live >= API_KEYS_MAX) throw new AppError(StatusCode.ApiKeyLimit, { limit: API_KEYS_MAX });
    const row = await tx.apiKey.create({
      data: {
        userId,
        name,
        prefix: key.slice(0, API_KEY_PREFIX.length + 5),
        keyHash: apiKeyHash(key),
        scopes: [...API_KEY_SCOPES],
      },
    });
    return { id: row.id, name: row.name, key };
  });
}

export async function listApiKeys(ctx: Pick<DomainContext, "db">, userId: number): Promise<ApiKey[]> {
  const rows = await ctx.db.apiKey.findMany({ where: { userId, revokedAt: null }, orderBy: { id: "desc" } });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createTime: Math.floor(r.createdAt.getTime() / 1000),
    lastUsedTime: r.lastUsedAt ? Math.floor(r.lastUsedAt.getTime() / 1000) : 0,
  }));
}

/** Revokes one of the user's own keys; someone else's, or one already revoked, is not found (30001). */
export async function revokeApiKey(
  ctx: Pick<DomainContext, "db">,
  userId: number,
  id: number,
): Promise<{ id: number }> {
  const done = await ctx.db.apiKey.updateMany({
    where: { id, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (done.count === 0) throw new AppError(StatusCode.RecordNotFound);
  return { id };
}
