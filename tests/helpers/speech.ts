import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Voices for test speech: festival's US female HTS voice, espeak-ng's US male and female variants. */
export type TestVoice = "festival-slt" | "espeak-male" | "espeak-female";

export function festivalAvailable(): boolean {
  return existsSync("/usr/bin/text2wave") || existsSync("/usr/local/bin/text2wave");
}

/** The clearest English voice installed: festival (`festival festvox-us-slt-hts`), else espeak-ng. */
export function clearestEnglishVoice(): TestVoice {
  return festivalAvailable() ? "festival-slt" : "espeak-male";
}

/**
 * Synthesises `text` to a 16 kHz mono 16-bit WAV at `file` (needs espeak-ng or festival, and sox),
 * with `padSeconds` of silence after it; `pitchCents` shifts it with sox (a "second speaker" from one voice).
 */
export async function synthesise(
  text: string,
  file: string,
  voice: TestVoice,
  padSeconds = 0,
  options: { pitchCents?: number } = {},
): Promise<string> {
  const raw = `${file}.raw.wav`;
  if (voice === "festival-slt") {
    await runWithInput("text2wave", ["-o", raw, "-eval", "(voice_cmu_us_slt_arctic_hts)"], text);
  } else {
    await run("espeak-ng", ["-v", voice === "espeak-female" ? "en-us+f3" : "en-us", "-s", "160", "-w", raw, text]);
  }
  const effects = options.pitchCents ? ["pitch", String(options.pitchCents)] : [];
  await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", file, ...effects, "pad", "0", String(padSeconds)]);
  await run("rm", ["-f", raw]);
  return file;
}

function runWithInput(cmd: string, args: string[], input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, (error) => (error ? reject(error) : resolve()));
    child.stdin?.end(input);
  });
}

/** Joins WAV files (same format) into one. */
export async function concatenate(files: string[], out: string): Promise<string> {
  await run("sox", [...files, out]);
  return out;
}

/** Seconds of audio in a WAV file (sox's soxi). */
export async function durationOf(file: string): Promise<number> {
  const { stdout } = await run("soxi", ["-D", file]);
  return Number(stdout.trim());
}

export const tmpName = (dir: string, name: string) => path.join(dir, name);
