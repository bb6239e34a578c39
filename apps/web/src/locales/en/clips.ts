/** English: clips made by selecting words on the detail page (docs/clips.md). */
export const clips = {
  clips: {
    make: "Clip",
    makeLabel: "Cut the selected words into a clip",
    making: "Cutting…",
    noWords: "The selection holds no words to clip",
    title: "Clip",
    length: "Length {{duration}}",
    video: "Video clip",
    audio: "Audio clip",
    download: "Download",
    captions: "Captions",
    share: "Make a public link",
    shareNote: "The link expires in 7 days; set a password or revoke it under Share.",
    delete: "Delete clip",
    deleted: "Clip deleted",
    failed: "The clip could not be cut. Please try again later.",
    cutting: "Cutting the clip…",
  },
};
