import type { Config, MODEL_SOURCE_NAMES } from "@yuelu/runtime";
import type { ModelFile, ModelSpec } from "./catalog.ts";

/**
 * Where speech model files come from, in the order they are tried (docs/chinese-speech.md "Where the
 * models come from"). The first source that serves a file whose checksum is right is used; one that
 * cannot be reached, has no copy or serves other bytes is skipped, and the operator is told why.
 * Mainland China cannot reach huggingface.co, so the list also holds sources reachable from there:
 * hf-mirror.com (the hub's own layout) and ModelScope (its copies of the same files).
 */

export type ModelSourceName = (typeof MODEL_SOURCE_NAMES)[number];

export interface ModelSource {
  /** how the log, /readyz and the console name it: huggingface, hf-mirror, modelscope, or a URL's host */
  name: string;
  /** where this source keeps `file` of `spec`; undefined when it holds no copy of that model */
  urlOf(spec: ModelSpec, file: ModelFile): string | undefined;
  /**
   * whether the checksum it publishes for a file (a hub's ETag) may vouch for a file the catalog pins
   * nothing for: Hugging Face–style hubs and the operator's own folder, not third-party copies
   */
  publishesChecksums: boolean;
}

const HUGGING_FACE = "https://huggingface.co";
const HF_MIRROR = "https://hf-mirror.com";
const MODELSCOPE = "https://www.modelscope.cn";

const withoutSlash = (url: string) => url.replace(/\/+$/, "");

/** "mirror.corp/hf" for https://mirror.corp/hf/: enough to tell an operator's sources apart. */
function nameOf(url: string): string {
  const { host, pathname } = new URL(url);
  return withoutSlash(`${host}${pathname}`);
}

/** A Hugging Face–style hub: <base>/<repo>/resolve/main/<file> (huggingface.co, hf-mirror.com, HF_ENDPOINT). */
export function hubSource(base: string, name = nameOf(base)): ModelSource {
  return {
    name,
    publishesChecksums: true,
    urlOf: (spec, file) => `${withoutSlash(base)}/${spec.repo}/resolve/main/${file.name}`,
  };
}

/** ModelScope: <base>/models/<owner>/<repo>/resolve/master/<file>, for the models it holds a copy of. */
export function modelScopeSource(base = MODELSCOPE, name = "modelscope"): ModelSource {
  return {
    name,
    publishesChecksums: false,
    urlOf: (spec, file) =>
      spec.modelscope ? `${withoutSlash(base)}/models/${spec.modelscope}/resolve/master/${file.name}` : undefined,
  };
}

/** A plain web folder holding the model's files (ASR_MODEL_URL): <url>/<file>. */
export function folderSource(url: string): ModelSource {
  return { name: nameOf(url), publishesChecksums: true, urlOf: (_spec, file) => `${withoutSlash(url)}/${file.name}` };
}

const NAMED: Record<ModelSourceName, () => ModelSource> = {
  huggingface: () => hubSource(HUGGING_FACE, "huggingface"),
  "hf-mirror": () => hubSource(HF_MIRROR, "hf-mirror"),
  modelscope: () => modelScopeSource(),
};

/** A name, or a URL: a known site's URL is that source (HF_ENDPOINT=https://hf-mirror.com is hf-mirror). */
function sourceOf(entry: string): ModelSource {
  if (entry in NAMED) return NAMED[entry as ModelSourceName]();
  const base = withoutSlash(entry);
  if (base === HUGGING_FACE) return NAMED.huggingface();
  if (base === HF_MIRROR) return NAMED["hf-mirror"]();
  if (base === MODELSCOPE || base === "https://modelscope.cn") return NAMED.modelscope();
  return hubSource(entry);
}

/** Time zones of mainland China, where huggingface.co cannot be reached. */
const MAINLAND_CHINA_ZONES = new Set([
  "Asia/Shanghai",
  "Asia/Chongqing",
  "Asia/Chungking",
  "Asia/Harbin",
  "Asia/Urumqi",
  "Asia/Kashgar",
  "PRC",
]);

/**
 * The order without ASR_MODEL_SOURCES: where the machine's clock says mainland China, ModelScope
 * first (served from inside China) and huggingface.co last (blocked there); elsewhere the hub itself
 * first, the mirror next. A wrong guess costs one failed connection, never the download: every
 * source is tried.
 */
export function defaultSourceOrder(timeZone: string): ModelSourceName[] {
  return MAINLAND_CHINA_ZONES.has(timeZone)
    ? ["modelscope", "hf-mirror", "huggingface"]
    : ["huggingface", "hf-mirror", "modelscope"];
}

export const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The sources this install downloads from, in order: ASR_MODEL_URL alone when set (the operator's
 * own folder: nothing else is asked); otherwise HF_ENDPOINT when set, then ASR_MODEL_SOURCES (or the
 * default order), each once.
 */
export function modelSources(
  config: Pick<Config, "HF_ENDPOINT" | "ASR_MODEL_URL" | "ASR_MODEL_SOURCES">,
  timeZone = localTimeZone(),
): ModelSource[] {
  if (config.ASR_MODEL_URL) return [folderSource(config.ASR_MODEL_URL)];
  const entries = [...(config.HF_ENDPOINT ? [config.HF_ENDPOINT] : []), ...(config.ASR_MODEL_SOURCES ?? [])];
  if (!config.ASR_MODEL_SOURCES) entries.push(...defaultSourceOrder(timeZone));
  const sources = entries.map(sourceOf);
  return sources.filter((source, i) => sources.findIndex((s) => s.name === source.name) === i);
}
