import { execFileSync } from "node:child_process";
import { accessSync, chmodSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The outside programs the product runs (ffmpeg, ffprobe, espeak-ng, festival), found once per process
 * in one order: the operator's setting (FFMPEG_PATH…), then the system's (PATH), then the copy shipped
 * inside an npm package. So a machine with nothing but Node works (bundled ffmpeg/ffprobe, eSpeak NG
 * in WebAssembly), and a prepared machine uses its own, usually newer, tools. The choice is logged at
 * start and reported in each worker's heartbeat and in /readyz.
 */

export const TOOL_NAMES = ["ffmpeg", "ffprobe", "espeak-ng", "festival"] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** Where a tool was found: the operator's variable, the system PATH, or an npm package of ours. */
export type ToolSource = "env" | "system" | "bundled";

export interface FoundTool {
  name: ToolName;
  source: ToolSource;
  /** "program": an executable at `path`; "wasm": a WebAssembly build, `path` is its package entry */
  kind: "program" | "wasm";
  path: string;
}

/** What /readyz and the heartbeat say about a tool (no user ever sees the path). */
export interface ToolReport {
  name: ToolName;
  available: boolean;
  source?: ToolSource;
  kind?: "program" | "wasm";
  path?: string;
  /** the first line of `-version`, when the program answers it */
  version?: string;
  /** what the operator can install or set when it is missing */
  install?: string;
}

/** The operator's settings of the tools (config, or the environment). */
export type ToolSettings = { [K in ToolVariable]?: string | undefined };
type ToolVariable = "FFMPEG_PATH" | "FFPROBE_PATH" | "ESPEAK_NG_BIN" | "FESTIVAL_BIN";

interface ToolSpec {
  name: ToolName;
  /** the variable an operator sets to a path (or a name on PATH) */
  envVar: ToolVariable;
  /** the program's name on PATH */
  program: string;
  /** the copy inside an npm package: a path, or undefined when not installed for this platform */
  bundled?: () => { path: string; kind: "program" | "wasm" } | undefined;
  install: string;
  /** `install` for the Chinese operator console */
  installZh: string;
}

const require = createRequire(import.meta.url);

/** `module.exports.path` of an installer package (@ffmpeg-installer/ffmpeg…), made executable if npm left it not. */
function installerBinary(pkg: string): { path: string; kind: "program" } | undefined {
  let file: string;
  try {
    file = (require(pkg) as { path: string }).path;
  } catch {
    return undefined; // not installed, or no build for this platform
  }
  if (!canRun(file)) {
    // npm 11 does not run these packages' `chmod` postinstall; the owner's x bit is usually there already.
    try {
      chmodSync(file, 0o755);
    } catch {}
  }
  return canRun(file) ? { path: file, kind: "program" } : undefined;
}

function packageEntry(pkg: string): { path: string; kind: "wasm" } | undefined {
  try {
    return { path: require.resolve(pkg), kind: "wasm" };
  } catch {
    return undefined;
  }
}

export const TOOL_SPECS: Record<ToolName, ToolSpec> = {
  ffmpeg: {
    name: "ffmpeg",
    envVar: "FFMPEG_PATH",
    program: "ffmpeg",
    bundled: () => installerBinary("@ffmpeg-installer/ffmpeg"),
    install: "apt-get install ffmpeg, or npm ci (ships @ffmpeg-installer/ffmpeg), or set FFMPEG_PATH",
    installZh: "apt-get install ffmpeg，或运行 npm ci（自带 @ffmpeg-installer/ffmpeg），或设置 FFMPEG_PATH",
  },
  ffprobe: {
    name: "ffprobe",
    envVar: "FFPROBE_PATH",
    program: "ffprobe",
    bundled: () => installerBinary("@ffprobe-installer/ffprobe"),
    install: "apt-get install ffmpeg, or npm ci (ships @ffprobe-installer/ffprobe), or set FFPROBE_PATH",
    installZh: "apt-get install ffmpeg，或运行 npm ci（自带 @ffprobe-installer/ffprobe），或设置 FFPROBE_PATH",
  },
  "espeak-ng": {
    name: "espeak-ng",
    envVar: "ESPEAK_NG_BIN",
    program: "espeak-ng",
    // eSpeak NG compiled to WebAssembly (the worker's engine loads it in-process).
    bundled: () => packageEntry("@echogarden/espeak-ng-emscripten"),
    install: "apt-get install espeak-ng, or npm ci (ships @echogarden/espeak-ng-emscripten), or set ESPEAK_NG_BIN",
    installZh:
      "apt-get install espeak-ng，或运行 npm ci（自带 @echogarden/espeak-ng-emscripten），或设置 ESPEAK_NG_BIN",
  },
  festival: {
    name: "festival",
    envVar: "FESTIVAL_BIN",
    program: "festival",
    install: "apt-get install festival festvox-us-slt-hts, or set FESTIVAL_BIN",
    installZh: "apt-get install festival festvox-us-slt-hts，或设置 FESTIVAL_BIN",
  },
};

/** True when `file` is a regular file this process may execute. */
export function canRun(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `program` as found on `searchPath` (a name), or itself when it is a path; undefined when it cannot run. */
export function findOnPath(
  program: string,
  searchPath = process.env.PATH ?? "",
  runs: (file: string) => boolean = canRun,
): string | undefined {
  if (program.includes("/")) return runs(program) ? path.resolve(program) : undefined;
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, program);
    if (runs(file)) return file;
  }
  return undefined;
}

export interface Discovery {
  /** the operator's setting for this tool (its variable's value), if any */
  configured?: string | undefined;
  searchPath?: string;
  runs?: (file: string) => boolean;
  /** stands in for the npm package lookup (tests) */
  bundled?: (spec: ToolSpec) => { path: string; kind: "program" | "wasm" } | undefined;
}

/**
 * Finds one tool: the operator's setting first (a path, or a name looked up on PATH), then the
 * program on PATH, then the npm-packaged copy. A setting is authoritative: when it names nothing that
 * runs, the tool is missing (and the report names the variable) rather than silently replaced.
 */
export function discoverTool(spec: ToolSpec, discovery: Discovery = {}): FoundTool | undefined {
  const { runs = canRun, bundled = (s) => s.bundled?.(), searchPath = process.env.PATH ?? "" } = discovery;
  const configured = discovery.configured?.trim();
  if (configured) {
    const found = findOnPath(configured, searchPath, runs);
    return found ? { name: spec.name, source: "env", kind: "program", path: found } : undefined;
  }
  const system = findOnPath(spec.program, searchPath, runs);
  if (system) return { name: spec.name, source: "system", kind: "program", path: system };
  const shipped = bundled(spec);
  return shipped ? { name: spec.name, source: "bundled", ...shipped } : undefined;
}

/** What was found per tool and setting; a miss is looked for again after a minute (it may be installed meanwhile). */
const found = new Map<string, { tool: FoundTool | null; at: number }>();
const MISS_TTL_MS = 60_000;

/**
 * The tool this process uses, found once per setting and then remembered; undefined when there is
 * none. `configured` is the operator's setting (config's FFMPEG_PATH, ESPEAK_NG_BIN…); by default
 * the process environment's.
 */
export function tool(
  name: ToolName,
  configured: string | undefined = process.env[TOOL_SPECS[name].envVar],
): FoundTool | undefined {
  const key = `${name}\u0000${configured ?? ""}`;
  let entry = found.get(key);
  if (!entry || (!entry.tool && Date.now() - entry.at > MISS_TTL_MS)) {
    entry = { tool: discoverTool(TOOL_SPECS[name], { configured }) ?? null, at: Date.now() };
    found.set(key, entry);
  }
  return entry.tool ?? undefined;
}

/** The path of a program tool, or its bare name when there is none (a spawn then fails with ENOENT). */
export function programPath(name: ToolName, configured?: string): string {
  const t = tool(name, configured);
  return t?.kind === "program" ? t.path : (configured ?? TOOL_SPECS[name].program);
}

/** What to install or set when `name` is missing; names the variable when the operator's setting is the cause. */
export function installHint(name: ToolName, configured?: string): string {
  const spec = TOOL_SPECS[name];
  return configured?.trim()
    ? `${spec.envVar}=${configured} does not name a program that runs here (unset it to use ${spec.program} from PATH or npm)`
    : spec.install;
}

/**
 * A missing tool's hint (as a heartbeat or toolReports carries it, in English) for the operator console in
 * `lang`: the Chinese console reads it in Chinese; a hint it does not know stays as it is.
 */
export function localInstallHint(name: string, install: string, lang: "zh" | "en"): string {
  const spec = TOOL_SPECS[name as ToolName];
  if (lang === "en" || !spec) return install;
  if (install === spec.install) return spec.installZh;
  const configured = install.match(new RegExp(`^${spec.envVar}=(.*) does not name a program that runs here`));
  return configured
    ? `${spec.envVar}=${configured[1]} 不是可在此运行的程序（取消该设置即可使用 PATH 或 npm 中的 ${spec.program}）`
    : install;
}

/** Forgets what was found (tests that change PATH or the variables). */
export function forgetTools(): void {
  found.clear();
  versions.clear();
}

const versions = new Map<string, string | undefined>();

function versionOf(t: FoundTool): string | undefined {
  if (t.kind !== "program") return undefined;
  if (!versions.has(t.path)) {
    let line: string | undefined;
    try {
      const out = execFileSync(t.path, ["-version"], {
        encoding: "utf8",
        timeout: 5000,
        stdio: ["ignore", "pipe", "ignore"],
      });
      line = out.split("\n")[0]?.trim().slice(0, 120) || undefined;
    } catch {
      line = undefined; // festival and espeak-ng answer --version, not -version: the path says enough
    }
    versions.set(t.path, line);
  }
  return versions.get(t.path);
}

/** One report per tool in `names`: found (where, which build) or missing (what to install). */
export function toolReports(
  names: readonly ToolName[] = TOOL_NAMES,
  settings: ToolSettings = process.env,
  /** false: without the builds' version lines (each is a program run, once per process: a start's log needs none) */
  versions = true,
): ToolReport[] {
  return names.map((name) => {
    const configured = settings[TOOL_SPECS[name].envVar];
    const t = tool(name, configured);
    if (!t) return { name, available: false, install: installHint(name, configured) };
    const version = versions && (name === "ffmpeg" || name === "ffprobe") ? versionOf(t) : undefined;
    return { name, available: true, source: t.source, kind: t.kind, path: t.path, ...(version ? { version } : {}) };
  });
}

/** One line for the start-up log: "ffmpeg: bundled (…/ffmpeg), ffprobe: system (/usr/bin/ffprobe), …". */
export function describeTools(reports: readonly ToolReport[]): string {
  return reports
    .map((r) =>
      r.available
        ? `${r.name}: ${r.source}${r.kind === "wasm" ? " WebAssembly" : ""} (${r.path})`
        : `${r.name}: missing`,
    )
    .join(", ");
}
