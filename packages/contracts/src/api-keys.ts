import { z } from "zod";
import { zText } from "./common.ts";

/** API keys (docs/integrators.md): `Authorization: Bearer <key>` acts as their owner. */
export const API_KEYS_MAX = 10;
export const API_KEY_NAME_MAX = 30;

/**
 * What a caller may do (docs/integrators.md "What a key may do"), each route naming the scope it needs:
 * - `api`: every call its user can make on their own account — records, transcription, speech, share
 *   links, webhooks, /v1;
 * - `keys`: make, list and revoke API keys;
 * - `console`: the operator console (with the admin role besides).
 * A browser session holds them all; an API key holds API_KEY_SCOPES only.
 */
export const SCOPES = ["api", "keys", "console"] as const;
export type Scope = (typeof SCOPES)[number];
/**
 * The scopes a key may hold: never `keys` (a leaked key could make itself a successor, so revoking it
 * would not end the access) nor `console`.
 */
export const API_KEY_SCOPES: readonly Scope[] = ["api"];

export const ZApiKeyCreateBody = z.object({ name: zText({ min: 1, max: API_KEY_NAME_MAX }) });
/** The key itself is in this answer only: it is stored hashed. */
export const ZApiKeyCreated = z.object({ id: z.number().int(), name: z.string(), key: z.string() });
export type ApiKeyCreated = z.infer<typeof ZApiKeyCreated>;

export const ZApiKey = z.object({
  id: z.number().int(),
  name: z.string(),
  /** the key's first characters, to tell keys apart */
  prefix: z.string(),
  /** epoch seconds */
  createTime: z.number().int(),
  /** epoch seconds, 0 when never used */
  lastUsedTime: z.number().int(),
});
export type ApiKey = z.infer<typeof ZApiKey>;
export const ZApiKeyList = z.object({ total: z.number().int(), limit: z.number().int(), list: z.array(ZApiKey) });
export type ApiKeyList = z.infer<typeof ZApiKeyList>;

export const ZApiKeyRevokeBody = z.object({ id: z.coerce.number().int().positive() });
export const ZApiKeyRevoked = z.object({ id: z.number().int() });
