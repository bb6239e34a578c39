import { describe, expect, it } from "vitest";
import { discoverTool, installHint, TOOL_SPECS } from "../../packages/runtime/src/tools.ts";

/**
 * The order in which the product finds an outside program (runtime/tools.ts): the operator's
 * setting, then the system's PATH, then the copy an npm package ships. A fake file system decides
 * what "runs" here.
 */

const runsOnly =
  (...files: string[]) =>
  (file: string) =>
    files.includes(file);
const shipped = (spec: { name: string }) =>
  spec.name === "espeak-ng"
    ? { path: "/app/node_modules/@echogarden/espeak-ng-emscripten/espeak-ng.js", kind: "wasm" as const }
    : { path: `/app/node_modules/@${spec.name}-installer/linux-x64/${spec.name}`, kind: "program" as const };
const nothingShipped = () => undefined;

describe("discoverTool", () => {
  it("prefers the operator's setting, a path or a name on PATH", () => {
    const runs = runsOnly("/opt/ff/ffmpeg", "/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg-6");
    expect(
      discoverTool(TOOL_SPECS.ffmpeg, { configured: "/opt/ff/ffmpeg", searchPath: "/usr/bin", runs, bundled: shipped }),
    ).toEqual({ name: "ffmpeg", source: "env", kind: "program", path: "/opt/ff/ffmpeg" });
    expect(
      discoverTool(TOOL_SPECS.ffmpeg, { configured: "ffmpeg-6", searchPath: "/usr/bin:/usr/local/bin", runs }),
    ).toMatchObject({ source: "env", path: "/usr/local/bin/ffmpeg-6" });
  });

  it("then the system's program, the first on PATH", () => {
    const runs = runsOnly("/usr/bin/ffprobe", "/usr/local/bin/ffprobe");
    expect(
      discoverTool(TOOL_SPECS.ffprobe, { searchPath: "/nope:/usr/local/bin:/usr/bin", runs, bundled: shipped }),
    ).toEqual({ name: "ffprobe", source: "system", kind: "program", path: "/usr/local/bin/ffprobe" });
  });

  it("then the npm-packaged copy: a binary for ffmpeg/ffprobe, WebAssembly for espeak-ng", () => {
    const none = runsOnly();
    expect(discoverTool(TOOL_SPECS.ffmpeg, { searchPath: "/usr/bin", runs: none, bundled: shipped })).toMatchObject({
      source: "bundled",
      kind: "program",
    });
    expect(
      discoverTool(TOOL_SPECS["espeak-ng"], { searchPath: "/usr/bin", runs: none, bundled: shipped }),
    ).toMatchObject({ source: "bundled", kind: "wasm" });
  });

  it("has nothing when none of those exist (festival ships in no npm package)", () => {
    expect(discoverTool(TOOL_SPECS.festival, { searchPath: "/usr/bin", runs: runsOnly() })).toBeUndefined();
    expect(
      discoverTool(TOOL_SPECS.ffmpeg, { searchPath: "", runs: runsOnly(), bundled: nothingShipped }),
    ).toBeUndefined();
  });

  it("treats a setting that names nothing runnable as missing (not silently replaced), and says so", () => {
    const runs = runsOnly("/usr/bin/espeak-ng");
    expect(
      discoverTool(TOOL_SPECS["espeak-ng"], {
        configured: "/opt/missing",
        searchPath: "/usr/bin",
        runs,
        bundled: shipped,
      }),
    ).toBeUndefined();
    expect(installHint("espeak-ng", "/opt/missing")).toContain("ESPEAK_NG_BIN=/opt/missing does not name a program");
    expect(installHint("ffprobe")).toContain("apt-get install ffmpeg");
  });

  it("finds the real bundled ffmpeg and ffprobe of this install", () => {
    for (const name of ["ffmpeg", "ffprobe"] as const) {
      const found = discoverTool(TOOL_SPECS[name], { searchPath: "" });
      expect(found, name).toMatchObject({ source: "bundled", kind: "program" });
    }
    expect(discoverTool(TOOL_SPECS["espeak-ng"], { searchPath: "" })).toMatchObject({
      source: "bundled",
      kind: "wasm",
    });
  });
});
