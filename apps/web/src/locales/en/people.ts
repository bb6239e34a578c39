import type { people as zh } from "../zh/people.ts";

export const people: typeof zh = {
  people: {
    title: "People",
    intro:
      "When you name a speaker, Yuelu remembers that person's voice; in later recordings the same voice is named for you (marked “suggested”: one click to confirm or undo). A voice it does not recognise never gets a known name. Voiceprints stay in your account: never in exports, share pages or webhooks.",
    remember: "Remember speakers' voices",
    rememberOn: "On: naming a speaker remembers the voice, and new recordings suggest names.",
    rememberOff: "Off: no voiceprint is kept and no name is suggested.",
    turnOffTitle: "Stop remembering voices?",
    turnOffText:
      "Every voiceprint and person kept so far is deleted at once, and later recordings keep and match no voices.",
    turnOff: "Turn off and delete",
    empty: "Nobody yet. Name a speaker on a transcript and Yuelu remembers their voice.",
    name: "Name",
    recordings: "Recordings",
    recordingsCount_one: "{{count}} recording",
    recordingsCount_other: "{{count}} recordings",
    pending: "{{count}} to confirm",
    updated: "Last changed",
    actions: "Actions",
    rename: "Rename",
    renameTitle: "Rename",
    renameLabel: "New name",
    renameInvalid: "Chinese characters, English letters and digits only, at most 10",
    forget: "Forget",
    forgetTitle: "Forget “{{name}}”?",
    forgetText:
      "This person's voiceprint is deleted at once. Names you gave in transcripts stay; suggested names go back to the speaker's number.",
    forgotten: "Forgotten",
    renamed: "Renamed",
    suggested: "suggested",
    suggestedHint: "A name suggested by the voice",
    confirm: "Confirm",
    undo: "Undo",
    confirmed: "Confirmed as “{{name}}”",
    undone: "The suggested name was undone",
  },
};
