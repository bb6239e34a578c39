import type { landing as zh } from "../zh/landing.ts";

export const landing: typeof zh = {
  landing: {
    heroTitle: "Free online recording to text",
    heroSubtitle:
      "Upload or record in your browser and get an editable, searchable, exportable transcript in minutes, with speakers told apart, in Chinese and English.",
    ctaUpload: "Upload a file",
    ctaLogin: "Sign in to start",
    featuresTitle: "Why Yuelu",
    f1Title: "Accurate transcripts",
    f1Text: "Self-hosted speech recognition for Chinese and English, with punctuation and timestamps.",
    f2Title: "Speakers told apart",
    f2Text: "Several speakers recognised automatically, renamed in one click.",
    f3Title: "Edit and export",
    f3Text: "Proofread line by line, search the text, export Word, TXT and subtitles.",
    f4Title: "Text to speech",
    f4Text: "Turn text into natural speech in many voices.",
    formats:
      "{{count}} formats incl. wav, mp3, m4a, mp4, webm, opus and flac; files up to {{size}} and {{upload}}; transcription up to {{transcribe}} per file.",
    stepsTitle: "Three steps",
    step1: "Upload or record",
    step2: "Automatic transcription",
    step3: "Edit and export",
    newUserGift: "New users get 3 hours of transcription free",
    vipTitle: "Go VIP, transcribe more",
    vipText:
      "Members transcribe up to {{member}} hours a day ({{free}} hours without membership) and get double check-in rewards.",
    vipCta: "Become a member",
    footer: "Yuelu · open-source, self-hostable recording-to-text",
    privacy: "Privacy policy",
    agreement: "User agreement",
    help: "Help",
    mockSpeaker1: "Speaker 1",
    mockSpeaker2: "Speaker 2",
    mockLine1: "Welcome, everyone, to this week's meeting.",
    mockLine2: "Let me start with last week's progress.",
    mockLine3: "Next, let's look at the roadmap.",
  },
};
