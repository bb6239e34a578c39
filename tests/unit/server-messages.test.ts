import {
  AUDIO_TOO_LONG_WORDS,
  AVATAR_IMAGE_BYTES,
  FEEDBACK_IMAGE_BYTES,
  imageTooLargeReason,
  SONG_REFUSAL_WORDS,
  StatusCode,
  smsCodeText,
  statusMessage,
  translateReason,
  UPLOAD_REFUSAL_WORDS,
} from "@yuelu/contracts";
import { describe, expect, it } from "vitest";

/**
 * The server's words that name a limit take their numbers from the limits (server-messages.ts): at
 * today's limits they read exactly as the texts written by hand did.
 */
describe("the words that name a limit", () => {
  it("50001 says the transcription limit: 3 hours", () => {
    expect(AUDIO_TOO_LONG_WORDS).toEqual({
      zh: "仅支持3小时以内的音频",
      en: "Only audio shorter than 3 hours is supported.",
    });
    expect(statusMessage(StatusCode.AudioTooLong, "zh")).toBe("仅支持3小时以内的音频");
  });

  it("an upload refusal says the upload limits: 5 hours, 1 GB", () => {
    expect(UPLOAD_REFUSAL_WORDS.too_long).toEqual({ zh: "音视频时长超过5小时", en: "it is longer than 5 hours" });
    expect(UPLOAD_REFUSAL_WORDS.too_large).toEqual({ zh: "文件超过1GB", en: "the file is larger than 1 GB" });
  });

  it("a song or a melody refusal says the voice pages' limits", () => {
    expect(SONG_REFUSAL_WORDS.tooLong.zh).toBe("歌曲时长超过 10 分钟");
    expect(SONG_REFUSAL_WORDS.tooShort.en).toBe("the song is too short (at least 3 seconds)");
    expect(SONG_REFUSAL_WORDS.midiTooLarge).toEqual({
      zh: "MIDI 文件超过 1MB",
      en: "the MIDI file is larger than 1 MB",
    });
    expect(SONG_REFUSAL_WORDS.melodyTooLong.zh).toBe("MIDI 旋律太长（最多 600 个音符、10 分钟）");
  });

  it("an image over its limit is named with that limit, in either language (the avatar's 2 MB too)", () => {
    expect(imageTooLargeReason(FEEDBACK_IMAGE_BYTES)).toBe("each image at most 5 MB");
    expect(translateReason(imageTooLargeReason(FEEDBACK_IMAGE_BYTES), "zh")).toBe("每张图片不超过 5 MB");
    expect(translateReason(imageTooLargeReason(AVATAR_IMAGE_BYTES), "zh")).toBe("每张图片不超过 2 MB");
    expect(translateReason(imageTooLargeReason(AVATAR_IMAGE_BYTES), "en")).toBe("each image at most 2 MB");
  });

  it("the SMS says how long its code lasts", () => {
    expect(smsCodeText("123456", 300)).toBe("【悦录】验证码 123456，5分钟内有效。");
  });
});
