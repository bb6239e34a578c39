import {
  ENGINE_PROBLEM_FIX,
  ENGINE_PROBLEM_FIXES,
  ENGINE_PROBLEMS,
  engineProblemFix,
  engineProblemMessage,
  mediaToolMissingMessage,
  TTS_ENGINE_PROBLEMS,
  TTS_PROBLEM_FIX,
  TTS_PROBLEM_FIXES,
  transcriptionFailureMessage,
  ttsFailureMessage,
  ttsProblemMessage,
} from "@yuelu/contracts";
import { describe, expect, it } from "vitest";

/**
 * Users read engine problems as plain sentences; variable names, commands, program names and
 * backticks are the operator's (ENGINE_PROBLEM_FIX, shown by /readyz).
 */
const OPERATOR_WORDS =
  /`|npm |apt-get|HF_|[A-Z]{2,}_[A-Z]{2,}|ffmpeg|ffprobe|espeak|festival|whisper|sherpa|worker|cmake|SoVITS/i;
const LANGS = ["zh", "en"] as const;

describe("engine problems in users' words", () => {
  it("no transcription problem shows users a variable, a command or a program", () => {
    for (const problem of ENGINE_PROBLEMS) {
      for (const lang of LANGS) {
        for (const language of ["zh", "en", "auto", undefined]) {
          const text = engineProblemMessage(problem, lang, 42, language);
          expect(text, `${problem}/${lang}/${language}`).not.toMatch(OPERATOR_WORDS);
          expect(text).not.toMatch(/\{\w+\}/);
        }
        expect(transcriptionFailureMessage(`engine-unavailable/${problem}`, lang)).not.toMatch(OPERATOR_WORDS);
      }
      expect(ENGINE_PROBLEM_FIX[problem].length).toBeGreaterThan(5);
    }
  });

  it("says which recognition is not ready, as the issue's example reads", () => {
    // nothing to wait for: not installed, and who can install it (issue 41)
    expect(engineProblemMessage("model-missing", "zh", 0, "zh")).toBe("本站暂未安装中文识别，请联系站点管理员");
    expect(engineProblemMessage("model-missing", "en", 0, "zh")).toBe(
      "Chinese recognition is not installed on this site yet. Please contact the site administrator",
    );
    expect(engineProblemMessage("model-invalid", "zh", 0, "zh")).toBe("中文识别暂未就绪，请稍后再试或联系站点管理员");
    expect(engineProblemMessage("model-downloading", "en", 42, "zh")).toBe(
      "The Chinese model is downloading (42%): it can be used as soon as the download finishes, please try again shortly",
    );
    expect(engineProblemMessage("model-failed", "zh", 0, "en")).toContain("英文识别模型下载未成功");
    expect(ENGINE_PROBLEM_FIX["model-failed"]).toContain("HF_ENDPOINT");
  });

  it("tells the operator what to do in the console's language; /readyz keeps English (issue 41)", () => {
    const CJK = /[\u4e00-\u9fff]/u;
    for (const problem of ENGINE_PROBLEMS) {
      expect(ENGINE_PROBLEM_FIXES[problem].zh, problem).toMatch(CJK);
      expect(ENGINE_PROBLEM_FIXES[problem].en, problem).not.toMatch(CJK);
      expect(ENGINE_PROBLEM_FIX[problem]).toBe(ENGINE_PROBLEM_FIXES[problem].en);
    }
    for (const problem of TTS_ENGINE_PROBLEMS) {
      expect(TTS_PROBLEM_FIXES[problem].en, problem).not.toMatch(CJK);
      expect(TTS_PROBLEM_FIX[problem]).toBe(TTS_PROBLEM_FIXES[problem].en);
    }
    expect(engineProblemFix("model-failed", "zh")).toContain("HF_ENDPOINT");
    expect(engineProblemFix("model-failed", "zh")).toMatch(/^worker 会自动重试/);
    expect(engineProblemFix("no-such-problem", "zh")).toBe("查看 worker 日志");
  });

  it("a failed transcription says once what to do and that the time was refunded", () => {
    expect(transcriptionFailureMessage("engine-unavailable/model-missing", "zh")).toBe(
      "本站暂未安装语音识别，请联系站点管理员。所用时长已退还。",
    );
    expect(transcriptionFailureMessage("engine-unavailable/model-invalid", "zh")).toBe(
      "语音识别暂未就绪，请稍后再试或联系站点管理员。所用时长已退还。",
    );
    expect(transcriptionFailureMessage("unreadable-audio", "en")).toBe(
      "The audio could not be decoded; the time it used was refunded; please try again.",
    );
  });

  it("no speech synthesis problem shows users a variable, a command or a program", () => {
    for (const problem of TTS_ENGINE_PROBLEMS) {
      for (const lang of LANGS) {
        expect(ttsProblemMessage(problem, lang), `${problem}/${lang}`).not.toMatch(OPERATOR_WORDS);
        expect(ttsFailureMessage(`engine-unavailable/${problem}`, lang)).not.toMatch(OPERATOR_WORDS);
      }
      expect(TTS_PROBLEM_FIX[problem].length).toBeGreaterThan(5);
    }
    for (const lang of LANGS) expect(mediaToolMissingMessage("ffprobe", lang)).not.toMatch(OPERATOR_WORDS);
  });
});
