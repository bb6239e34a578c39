import { defaultUrlTransform } from "react-markdown";

/**
 * A help document is Markdown (docs/engagement.md "Help and feedback"). These are the pure rules
 * the shared renderer (components/markdown-text.tsx) applies around react-markdown.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** `1、…`, `1）…`, `1．…` (the Chinese ways of numbering) and `1.…` straight before Chinese text */
const CJK_NUMBERED = /^( {0,3})(\d{1,3})(?:[、）．]\s*|\.(?=\p{Script=Han}))/u;
/** `• …` and `· …`: bullets typed with a full-width or middle dot */
const DOT_BULLET = /^( {0,3})[•·]\s+/u;

/**
 * Lines numbered the Chinese way (`1、登录`, `2）上传`) or bulleted with a dot (`• item`) become the
 * Markdown list lines they mean (`1. 登录`, `- item`), so documents written before Markdown was
 * rendered keep their lists. Code blocks are left as they are.
 */
export function normalizeMarkdown(source: string): string {
  let fence: string | null = null;
  return source
    .split(/\r?\n/)
    .map((line) => {
      const opens = FENCE.exec(line)?.[1];
      if (opens) {
        if (fence === null) fence = opens[0] ?? null;
        else if (opens[0] === fence) fence = null;
        return line;
      }
      if (fence !== null) return line;
      return line.replace(CJK_NUMBERED, "$1$2. ").replace(DOT_BULLET, "$1- ");
    })
    .join("\n");
}

/** `/path` on this site (not `//host`, nor `/\host`, which browsers read as another host). */
const SITE_PATH = /^\/(?![/\\])/;
const HTTP = /^https?:\/\//i;

/**
 * The urlTransform of a document's Markdown: react-markdown's default (which empties `javascript:`,
 * `data:`, `vbscript:` and every protocol but http(s), mailto, irc(s) and xmpp), and for images
 * only http(s) addresses and paths of this site. `null` drops the attribute.
 */
export function safeMarkdownUrl(value: string, key: string): string | null {
  const url = defaultUrlTransform(value.trim());
  if (url === "") return null;
  if (key === "src") return HTTP.test(url) || SITE_PATH.test(url) ? url : null;
  return url;
}

/** Whether a link leaves the site (a protocol, or `//host`): it then opens in a new tab, without opener or referrer. */
export function isExternalHref(href: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(href) || /^[/\\]{2}/.test(href) || /^\/\\/.test(href);
}

/** Whether an external link is a web page (http, https, //host): only those open a tab (not mailto:). */
export function opensTab(href: string): boolean {
  return HTTP.test(href) || /^[/\\]{2}/.test(href) || /^\/\\/.test(href);
}
