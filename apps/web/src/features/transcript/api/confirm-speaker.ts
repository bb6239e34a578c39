import type { PeopleConfirmResult } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";

/**
 * POST /api/v1/people/confirm (docs/people.md): a speaker's name suggested by the voice confirmed (`accept`) or
 * undone (the speaker's number back).
 */
export function confirmSpeaker(fileId: number, speaker: number, accept: boolean) {
  return api<PeopleConfirmResult>("/api/v1/people/confirm", { method: "POST", data: { fileId, speaker, accept } });
}
