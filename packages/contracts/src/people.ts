import { z } from "zod";
import { zFlag, zId, zInt, zText } from "./common.ts";

/**
 * People (docs/people.md): speakers recognised across recordings. A name a user gives a speaker keeps that
 * person's voiceprint in the account; later recordings' speakers whose voice matches are named (suggested until
 * confirmed). Voiceprints themselves never appear in any answer.
 */

/** One known person: the name, how many of the user's recordings they speak in, when last heard. */
export const ZPerson = z.object({
  personId: z.number().int(),
  name: z.string(),
  /** recordings (not in the bin) with a speaker named or suggested as this person */
  recordings: z.number().int(),
  /** of them, still waiting for the user's confirmation */
  suggested: z.number().int(),
  /** epoch seconds the person was created */
  createTime: z.number().int(),
  /** epoch seconds of the last change (named again, confirmed, renamed) */
  updateTime: z.number().int(),
});
export type Person = z.infer<typeof ZPerson>;

/** GET /voice_yuelu/api/v1/people/list */
export const ZPeopleList = z.object({
  /** whether voices are remembered (POST /people/settings) */
  remember: z.boolean(),
  total: z.number().int(),
  list: z.array(ZPerson),
});
export type PeopleList = z.infer<typeof ZPeopleList>;

/** POST /voice_yuelu/api/v1/people/delete {personId}: forgets the person (their voiceprint deleted at once) */
export const ZPeopleDeleteBody = z.object({ personId: zId });
export const ZPeopleDeleteResult = z.object({
  personId: z.number().int(),
  /** transcripts whose segments lost the person (suggested names went back to the speaker's label) */
  transcripts: z.number().int(),
});

/** POST /voice_yuelu/api/v1/people/settings {remember}: off forgets every person and print at once */
export const ZPeopleSettingsBody = z.object({ remember: zFlag });
export const ZPeopleSettings = z.object({ remember: z.boolean() });

/**
 * POST /voice_yuelu/api/v1/people/rename {personId, name}: the person's new name, written into every transcript
 * segment that carries the person. A name another person of the account has merges the two (one voice).
 */
export const ZPeopleRenameBody = z.object({ personId: zId, name: zText({ max: 1000 }) });
export const ZPeopleRenameResult = z.object({
  personId: z.number().int(),
  name: z.string(),
  /** the person this one was merged into, when the name was another person's */
  mergedInto: z.number().int().optional(),
  transcripts: z.number().int(),
});

/**
 * POST /voice_yuelu/api/v1/people/confirm {fileId, speaker, accept}: a suggested name of a transcript's speaker
 * (segments' `speaker`) confirmed (accept: the print joins the person's voiceprint) or undone (the speaker's
 * default label back, the match forgotten).
 */
export const ZPeopleConfirmBody = z.object({
  fileId: zId,
  speaker: zInt.pipe(z.number().int().min(0).max(999)),
  accept: zFlag,
});
export const ZPeopleConfirmResult = z.object({
  fileId: z.number().int(),
  speaker: z.number().int(),
  accepted: z.boolean(),
  /** the speaker's name now (in the reader's language for a default label) */
  spkName: z.string(),
  personId: z.number().int().optional(),
  /** segments changed */
  segments: z.number().int(),
  /** the transcript's version after the change */
  version: z.number().int(),
});
export type PeopleConfirmResult = z.infer<typeof ZPeopleConfirmResult>;
