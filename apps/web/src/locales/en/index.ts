/** The English catalogue: one file per feature, merged into one i18next namespace. */

import { account } from "./account.ts";
import { cashier } from "./cashier.ts";
import { checkin } from "./checkin.ts";
import { clips } from "./clips.ts";
import { common } from "./common.ts";
import { help } from "./help.ts";
import { integrations } from "./integrations.ts";
import { landing } from "./landing.ts";
import { live } from "./live.ts";
import { messages } from "./messages.ts";
import { notes } from "./notes.ts";
import { onboarding } from "./onboarding.ts";
import { people } from "./people.ts";
import { records } from "./records.ts";
import { rewards } from "./rewards.ts";
import { satisfaction } from "./satisfaction.ts";
import { search } from "./search.ts";
import { session } from "./session.ts";
import { share } from "./share.ts";
import { shop } from "./shop.ts";
import { transcript } from "./transcript.ts";
import { tts } from "./tts.ts";
import { voice } from "./voice.ts";

export const en = {
  ...common,
  ...landing,
  ...account,
  ...cashier,
  ...session,
  ...onboarding,
  ...checkin,
  ...records,
  ...transcript,
  ...satisfaction,
  ...help,
  ...rewards,
  ...shop,
  ...messages,
  ...tts,
  ...voice,
  ...integrations,
  ...live,
  ...search,
  ...share,
  ...notes,
  ...clips,
  ...people,
};
