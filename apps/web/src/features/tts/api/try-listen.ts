import type { TryListen } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { ttsPaths } from "./paths.ts";

/** A voice's sample: made on first use, then served from the file store. */
export function tryListen(promptId: number, signal?: AbortSignal): Promise<TryListen> {
  return api<TryListen>(ttsPaths.tryListen, { params: { promptId, source: 0 }, signal });
}
