import { paths } from "@/config/paths.ts";

export interface NavItem {
  to: string;
  title: string; // titles.<key>
  icon: string;
  /** also active on these paths (a group's other tabs) */
  alsoActive?: string[];
}

/** The home layout's navigation, grouped as the product presents it. */
export const navGroups: { label: string; items: NavItem[] }[] = [
  {
    label: "nav.groupTranscribe",
    items: [
      { to: paths.transaudio, title: "transaudio", icon: "⇪" },
      { to: paths.audioList, title: "audioList", icon: "≣", alsoActive: [paths.recycleBin] },
    ],
  },
  {
    label: "nav.groupVoice",
    items: [
      { to: paths.textToVoice, title: "textToVoice", icon: "♪", alsoActive: [paths.myVoice] },
      { to: paths.songConversion, title: "songConversion", icon: "♫", alsoActive: [paths.songVoiceConversion] },
      { to: paths.voiceLibrary, title: "voiceLibrary", icon: "◎" },
    ],
  },
  {
    label: "nav.groupAccount",
    items: [
      { to: paths.vip, title: "vip", icon: "♛", alsoActive: [paths.order] },
      { to: paths.personalInfo, title: "personalInfo", icon: "☺" },
      { to: paths.helpDocument, title: "helpDocument", icon: "?" },
    ],
  },
];
