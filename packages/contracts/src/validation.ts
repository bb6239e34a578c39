import type { Lang } from "./codes.ts";

/**
 * Translates the reason of a 10002 ("phone (must be an 11-digit mobile number)") into the request's
 * language (zod-free). Schemas and services write their reasons in English from the catalogue below;
 * a reason the catalogue does not know is described from its zod issue code, so a Chinese message
 * never carries an English developer suffix.
 */

type Template = readonly [en: string, zh: string];

/** English reason templates ({n}, {values}: filled from the message) and their Chinese. */
const REASONS: readonly Template[] = [
  ["is required", "必填"],
  ["must be a number", "必须是数字"],
  ["must be an integer", "必须是整数"],
  ["must be a positive integer id", "必须是正整数 ID"],
  ["must be comma-separated positive integer ids", "必须是以逗号分隔的正整数 ID"],
  ["must be record ids separated by commas", "必须是以逗号分隔的记录 ID"],
  ["must name at least one id", "至少需要一个 ID"],
  ["at most {n} ids", "最多 {n} 个 ID"],
  ["at most {n} files", "最多 {n} 个文件"],
  ["at most {n} characters", "最多 {n} 个字符"],
  ["at least {n} characters", "至少 {n} 个字符"],
  ["at most {n} items", "最多 {n} 项"],
  ["at least {n} items", "至少 {n} 项"],
  ["at most {n} words", "最多 {n} 个词"],
  ["at most {n} saved hot words", "最多保存 {n} 个热词"],
  ["at most {n} segments", "最多 {n} 段"],
  ["at most {n} folders", "最多 {n} 个文件夹"],
  ["at most {n}", "不能大于 {n}"],
  ["at least {n}", "不能小于 {n}"],
  ["must be below {n}", "必须小于 {n}"],
  ["must not be empty", "不能为空"],
  ["must not contain control characters", "不能包含控制字符"],
  ["must not contain the NUL character", "不能包含空字符（NUL）"],
  ["must be an 11-digit mobile number", "必须是 11 位手机号"],
  ["must be 6 digits", "必须是 6 位数字"],
  ["code or password is required", "需要验证码或密码"],
  ["identity or channel is required", "需要身份或来源"],
  ["letters, digits, - and _ only", "只能包含字母、数字、- 和 _"],
  ["lowercase letters, digits and - only", "只能包含小写字母、数字和 -"],
  ["must be an http(s) or site-relative URL", "必须是 http(s) 或站内地址"],
  ["invalid JSON", "不是有效的 JSON"],
  ["must be a JSON object", "必须是 JSON 对象"],
  ["must be an object", "必须是对象"],
  ["must be a list of words", "必须是词语列表"],
  ["only Chinese characters, English letters and digits, at most {n}", "仅支持中文、英文和数字，最多 {n} 个字符"],
  ["must be a folder id (digits), or 0 for no folder", "必须是文件夹 ID（数字），0 表示不放入文件夹"],
  ["must be 8–64 characters of A–Z, a–z, 0–9, _ or -", "必须是 8–64 位字母、数字、_ 或 -"],
  ["a folder with this name already exists", "已有同名文件夹"],
  ["not one of the listed options", "不是可选项之一"],
  ["no file part in the multipart body", "请求中没有文件"],
  ["this call takes no files", "此接口不接受文件"],
  ["invalid multipart body", "multipart 请求体格式错误"],
  ["invalid JSON body", "JSON 请求体格式错误"],
  ["invalid encoding in the address", "地址中的编码无效"],
  ["must be true or false", "必须是 true 或 false"],
  ["must be one of: {values}", "必须是以下之一：{values}"],
  ["please fill in the redeem code", "请填写兑换码"],
  ["please fill in a correct redeem code", "请填写正确的兑换码"],
  ["the price has changed: please check it again", "价格已变化，请重新确认"],
  ["not one of the tasks", "没有这个任务"],
  ["no such voice", "没有这个音色"],
  [
    "this voice speaks English only: choose a Chinese voice for Chinese text",
    "该音色只能朗读英文，中文文本请选择中文音色",
  ],
  ["only images are accepted (PNG, JPEG, WebP, GIF)", "仅支持图片（PNG、JPEG、WebP、GIF）"],
  ["at most {n} images", "最多 {n} 张图片"],
  // imageTooLargeReason (server-messages.ts): the size is the limit's
  ["each image at most {size} MB", "每张图片不超过 {size} MB"],
  // the operator console (docs/admin.md)
  ["already used by other goods", "已被其他商品使用"],
  ["already used by another document", "已被其他文档使用"],
  ["already used by another batch", "已被其他批次使用"],
  ["already replied", "已回复过"],
  ["must be in the future", "必须晚于现在"],
  ["already used for another request", "已用于另一个请求"],
  ["invalid format", "格式不正确"],
  ["invalid value", "取值无效"],
  // webhooks (docs/integrators.md)
  ["must be an http(s) URL", "必须是 http(s) 地址"],
  ["its host does not resolve", "无法解析该地址的主机名"],
  [
    "points to a private, loopback or link-local address, which this server does not call",
    "指向内网、本机或链路本地地址，本服务器不会调用这类地址",
  ],
  // the OpenAI-compatible endpoints (docs/integrators.md)
  ["streaming is not supported: leave stream out", "不支持流式输出：请去掉 stream"],
  ["only audio: server-sent events are not supported", "仅支持直接返回音频，不支持 SSE"],
  ["send one file per request", "每个请求只能上传一个文件"],
  ["supported here: zh, en, or leave it out to detect it", "本站支持 zh、en，或不填以自动识别"],
  ["this install transcribes {language} with {engine}", "本站用 {engine} 识别 {language}"],
  ["this voice is spoken by {engine}", "该音色由 {engine} 朗读"],
  [
    "no such voice: an OpenAI voice (alloy, nova…), a library voice (promptId or name) or yours (my:<id> or its name)",
    "没有这个音色：可用 OpenAI 音色名（alloy、nova…）、音色库音色（promptId 或名称）或我的声音（my:<id> 或名称）",
  ],
];

const COMPILED = REASONS.map(([en, zh]) => {
  const names: string[] = [];
  const source = en.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_whole, name: string) => {
    names.push(name);
    return "(.+?)";
  });
  return { pattern: new RegExp(`^${source}$`), names, en, zh };
});

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** The reason in `lang` when the catalogue knows it, else undefined. */
function catalogued(reason: string, lang: Lang): string | undefined {
  for (const entry of COMPILED) {
    const match = entry.pattern.exec(reason);
    if (!match) continue;
    const values = Object.fromEntries(entry.names.map((name, i) => [name, match[i + 1] ?? ""]));
    return fill(lang === "zh" ? entry.zh : entry.en, values);
  }
  return undefined;
}

/** What a zod issue carries that describing it needs (structural: no zod import). */
export interface IssueLike {
  code?: string;
  message?: string;
  expected?: string;
  origin?: string;
  input?: unknown;
  minimum?: number | bigint;
  maximum?: number | bigint;
  values?: readonly unknown[];
}

/** A reason for an issue without a catalogued message, from its code. */
function fromCode(issue: IssueLike): string {
  const size = issue.origin === "string" ? "characters" : issue.origin === "array" ? "items" : "";
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return issue.expected === "number" || issue.expected === "int" ? "must be a number" : "invalid value";
    case "too_small":
      if (issue.origin === "string" && Number(issue.minimum) === 1) return "must not be empty";
      return size ? `at least ${issue.minimum} ${size}` : `at least ${issue.minimum}`;
    case "too_big":
      return size ? `at most ${issue.maximum} ${size}` : `at most ${issue.maximum}`;
    case "invalid_value":
      return issue.values?.length ? `must be one of: ${issue.values.join(", ")}` : "invalid value";
    case "invalid_format":
      return "invalid format";
    default:
      return "invalid value";
  }
}

/** A reason (catalogued English, or any text) in `lang`; unknown text becomes the generic 'invalid value'. */
export function translateReason(reason: string, lang: Lang): string {
  return catalogued(reason, lang) ?? catalogued("invalid value", lang)!;
}

/** The reason of a validation issue in `lang`: its own message when catalogued, else one derived from its code. */
export function describeIssue(issue: IssueLike, lang: Lang): string {
  const own = issue.message ? catalogued(issue.message, lang) : undefined;
  return own ?? translateReason(fromCode(issue), lang);
}

/** Chinese names of the fields users meet most; others keep their API name. */
const FIELD_NAMES_ZH: Record<string, string> = {
  phone: "手机号",
  code: "验证码",
  password: "密码",
  nickName: "昵称",
  userPhoto: "头像",
  fileName: "文件名",
  fileId: "文件 ID",
  fileIds: "文件 ID 列表",
  menuId: "文件夹 ID",
  menuName: "文件夹名称",
  hotWords: "热词",
  spkName: "说话人名称",
  text: "文本",
  abstracts: "摘要",
  asrResult: "转写结果",
  dictationParam: "转写参数",
  identity: "身份",
  channel: "来源",
  rating: "评分",
  packCode: "兑换码",
  exchangeAmount: "兑换数量",
  coinNumber: "悦豆数",
  challengeId: "任务",
  content: "内容",
  contact: "联系方式",
  images: "截图",
  categoryId: "问题类型",
  comment: "意见",
  file: "文件",
  body: "请求体",
  url: "地址",
  promptId: "音色",
  speed: "语速",
  pitch: "音调",
  volume: "音量",
  format: "格式",
  title: "作品名称",
  taskId: "任务 ID",
  taskIds: "任务 ID 列表",
};

/**
 * "phone (must be an 11-digit mobile number)" / "手机号 phone（必须是 11 位手机号）": the `{field}` of a
 * 10002 message. The API name always stays (integrators search for it); Chinese adds the field's
 * Chinese name in front when it is a known one.
 */
export function invalidField(field: string, reason: string | undefined, lang: Lang): string {
  const last = field.split(".").at(-1) ?? field;
  const zhName = lang === "zh" ? FIELD_NAMES_ZH[last] : undefined;
  const name = zhName ? `${zhName} ${field}` : field;
  if (!reason) return name;
  return lang === "zh" ? `${name}（${reason}）` : `${name} (${reason})`;
}
