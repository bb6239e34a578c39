import { z } from "zod";

/** Spec §3 Voice library item; the list response has total and list. */
export const ZVoiceLibraryItem = z.object({
  promptId: z.number().int(),
  name: z.string(),
  gender: z.string(),
  language: z.string(),
  audioUrl: z.string(),
  playing: z.boolean(),
});
export const ZVoiceLibraryPage = z.object({ total: z.number().int(), list: z.array(ZVoiceLibraryItem) });

/** Spec §3 voice clone user model defaults: mt 1, mc empty. */
export const USER_VOICE_MODEL_DEFAULTS = { mt: 1, mc: "" } as const;
