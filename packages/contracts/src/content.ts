import { z } from "zod";

/** Spec §3 Banner. */
export const ZBanner = z.object({ id: z.number().int(), image: z.string(), link: z.string(), title: z.string() });
export const ZIndexLink = z.object({ id: z.number().int(), type: z.number().int(), name: z.string(), url: z.string() });
export const ZGetLinkQuery = z.object({ type: z.coerce.number().int().min(0).max(99).default(1) });
export const ZLimitedOffer = z.object({
  enabled: z.boolean(),
  goodsId: z.number().int(),
  title: z.string(),
  /** epoch seconds; 0 when no offer runs */
  endTime: z.number().int(),
  /** seconds left, 0 when none */
  remaining: z.number().int(),
});
export const ZActivity = z.object({
  id: z.number().int(),
  title: z.string(),
  image: z.string(),
  link: z.string(),
  startTime: z.number().int(),
  endTime: z.number().int(),
});
export const ZHelpDocument = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  content: z.string(),
});
export type HelpDocument = z.infer<typeof ZHelpDocument>;
