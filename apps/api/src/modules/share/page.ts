import { type Lang, spokenForm, wordSpans } from "@yuelu/contracts";

/**
 * The public share pages (docs/share.md): plain server-rendered HTML, no SPA bundle. Its one style
 * and one script carry the response's CSP nonce; without the script the page reads the same, only
 * clicking a line or a word does not move the player, and no word is marked as it plays.
 */

const TEXT = {
  zh: {
    brand: "悦录",
    sharedBy: "{name} 分享",
    someone: "悦录用户",
    duration: "时长 {time}",
    summary: "摘要",
    transcript: "转写全文",
    empty: "这条录音还没有文字内容。",
    noAudio: "分享者未附带音频。",
    seekHint: "点击任意一段即可从该处播放。",
    wordHint: "点击任意词语即可从该处播放。",
    passwordTitle: "需要密码",
    passwordPrompt: "此分享链接受密码保护，请输入密码查看。",
    password: "密码",
    open: "查看",
    wrongPassword: "密码不正确，请重试。",
    notFoundTitle: "链接不存在",
    notFound: "找不到这个分享链接，请检查地址是否完整。",
    revokedTitle: "链接已失效",
    revoked: "分享者已撤销此链接。",
    expiredTitle: "链接已过期",
    expired: "此分享链接已过有效期。",
    deletedTitle: "内容已删除",
    deleted: "分享的内容已被删除，无法查看。",
    tooManyTitle: "操作过于频繁",
    tooMany: "请求过于频繁，请稍后再试。",
  },
  en: {
    brand: "Yuelu",
    sharedBy: "Shared by {name}",
    someone: "a Yuelu user",
    duration: "Duration {time}",
    summary: "Summary",
    transcript: "Transcript",
    empty: "This recording has no text yet.",
    noAudio: "The audio was not shared.",
    seekHint: "Click any line to play from there.",
    wordHint: "Click any word to play from there.",
    passwordTitle: "Password required",
    passwordPrompt: "This shared link is protected. Enter its password to view it.",
    password: "Password",
    open: "View",
    wrongPassword: "Wrong password. Please try again.",
    notFoundTitle: "Link not found",
    notFound: "This shared link does not exist. Check that the address is complete.",
    revokedTitle: "Link no longer valid",
    revoked: "The owner revoked this link.",
    expiredTitle: "Link expired",
    expired: "This shared link has expired.",
    deletedTitle: "Content deleted",
    deleted: "What was shared here has been deleted.",
    tooManyTitle: "Too many requests",
    tooMany: "Too many requests. Please try again later.",
  },
} satisfies Record<Lang, Record<string, string>>;

export type ShareNotice = "notFound" | "revoked" | "expired" | "deleted" | "tooMany";

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

const fill = (template: string, name: string, value: string) => template.replace(`{${name}}`, value);

/** 75 s → "01:15", 3726 s → "1:02:06" */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** The CSP of every share page: nothing but its own nonce'd style and script, and media from here. */
export function sharePageCsp(nonce: string): string {
  return (
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; media-src 'self'; ` +
    "img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
  );
}

/**
 * Every text colour is at least 4.5:1 (WCAG AA) on what it sits on (issue 43): the brand line and the
 * button #2f5ae0 (the app's --brand) 5.74 on white, a line's time #5d636c 5.02 on the playing line's
 * #e1eaff, hints #646a73 5.45 on white.
 */
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;color:#1f2329;background:#f5f6f8}
main{max-width:48rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:12px;padding:1rem 1.25rem;margin-bottom:1rem;box-shadow:0 1px 3px rgba(0,0,0,.06)}
.brand{color:#2f5ae0;font-weight:600;margin:0 0 .25rem}
h1{font-size:1.4rem;margin:.25rem 0;word-break:break-word}
h2{font-size:1.05rem;margin:0 0 .5rem}
.meta,.hint{color:#646a73;font-size:.875rem;margin:.25rem 0}
audio{width:100%;margin-top:.5rem}
.summary p{margin:.25rem 0;white-space:pre-wrap}
ol{list-style:none;margin:0;padding:0}
li.seg{padding:.5rem .5rem;border-radius:8px}
li.seg.playable{cursor:pointer}
li.seg.playable:hover,li.seg:focus{background:#f0f4ff;outline:none}
li.seg.current{background:#e1eaff}
.who{font-weight:600;margin-right:.5rem}
time{color:#5d636c;font-size:.8rem;font-variant-numeric:tabular-nums}
.text{margin:.125rem 0 0;white-space:pre-wrap;word-break:break-word}
li.playable .text span{cursor:pointer;border-radius:3px}
li.playable .text span:hover{text-decoration:underline dotted #5d636c;text-underline-offset:3px}
.text span.now{background:#bccfff}
form{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.75rem}
input{flex:1 1 12rem;font:inherit;padding:.5rem .75rem;border:1px solid #d0d3d6;border-radius:8px}
button{font:inherit;padding:.5rem 1.25rem;border:0;border-radius:8px;background:#2f5ae0;color:#fff;cursor:pointer}
.error{color:#d83931;margin:.5rem 0 0}
`;

/**
 * Click (or Enter on) a line, or click a word: the player jumps there and plays; a press that selected text
 * does not. The line being played is marked, and in it the word being spoken, every animation frame while
 * playing (timeupdate comes some 4 times a second, slower than words are spoken); lines and words are found
 * by binary search. A line's words become spans (data-t: the start in seconds) only when needed — the
 * pointer comes over the line, or it plays — from its data-w (lineWords): a 5-hour record has some 50 000
 * words, which the page neither sends nor lays out as elements.
 */
const SCRIPT = `(function(){var a=document.getElementById("player"),l=document.getElementById("segments");if(!a||!l)return;
var items=l.querySelectorAll("li[data-start]"),starts=[];for(var i=0;i<items.length;i++){items[i].tabIndex=0;items[i].classList.add("playable");starts.push(Number(items[i].getAttribute("data-start")))}
function wrap(li){var p=li.querySelector("p[data-w]");if(!p||p.hasAttribute("data-words"))return;p.setAttribute("data-words","");
var text=p.textContent,at=0,cs=0,out=document.createDocumentFragment(),list=p.getAttribute("data-w").split(" ");
for(var k=0;k<list.length;k++){var w=list[k].split(","),from=at+Number(w[0]),to=from+Number(w[1]);cs+=Number(w[2]);
if(from>at)out.appendChild(document.createTextNode(text.slice(at,from)));var s=document.createElement("span");s.textContent=text.slice(from,to);s.setAttribute("data-t",String(cs/100));out.appendChild(s);at=to}
if(at<text.length)out.appendChild(document.createTextNode(text.slice(at)));p.textContent="";p.appendChild(out)}
l.addEventListener("pointerover",function(e){var li=e.target.closest&&e.target.closest("li[data-start]");if(li)wrap(li)});
function go(t){a.currentTime=t;var p=a.play();if(p&&p.catch)p.catch(function(){})}
l.addEventListener("click",function(e){var s=window.getSelection();if(s&&!s.isCollapsed&&l.contains(s.anchorNode))return;
var w=e.target.closest("[data-t]");if(w)return go(Number(w.getAttribute("data-t")));var li=e.target.closest("li[data-start]");if(li)go(Number(li.getAttribute("data-start")))});
l.addEventListener("keydown",function(e){if(e.key!=="Enter")return;var li=e.target.closest("li[data-start]");if(li){e.preventDefault();go(Number(li.getAttribute("data-start")))}});
function last(n,at,t){var lo=0,hi=n-1,f=-1;while(lo<=hi){var m=(lo+hi)>>1;if(at(m)<=t){f=m;lo=m+1}else hi=m-1}return f}
var cur=null,words=null,word=null;
function mark(){var t=a.currentTime,k=last(starts.length,function(m){return starts[m]},t),hit=k<0?null:items[k];
if(hit!==cur){if(cur)cur.classList.remove("current");if(hit){hit.classList.add("current");wrap(hit)}cur=hit;words=hit?hit.querySelectorAll("[data-t]"):null}
var j=words?last(words.length,function(m){return Number(words[m].getAttribute("data-t"))},t):-1,w=j<0?null:words[j];
if(w!==word){if(word)word.classList.remove("now");if(w)w.classList.add("now");word=w}}
var raf=0;function frame(){mark();raf=a.paused||a.ended?0:requestAnimationFrame(frame)}
a.addEventListener("play",function(){if(!raf)raf=requestAnimationFrame(frame)});
a.addEventListener("timeupdate",mark);a.addEventListener("seeked",mark)})();`;

interface Shell {
  lang: Lang;
  nonce: string;
  title: string;
  /** Open Graph tags: only on the page that shows the record */
  ogTitle?: string;
  body: string;
  script?: boolean;
}

function shell({ lang, nonce, title, ogTitle, body, script }: Shell): string {
  const t = TEXT[lang];
  const og = ogTitle
    ? `<meta property="og:title" content="${escapeHtml(ogTitle)}">
<meta property="og:type" content="article">
<meta property="og:site_name" content="${t.brand}">`
    : "";
  return `<!doctype html>
<html lang="${lang === "zh" ? "zh-CN" : "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · ${t.brand}</title>
${og}
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${script ? `<script nonce="${nonce}">${SCRIPT}</script>` : ""}
</body>
</html>`;
}

/** A line as the page shows it: nothing of the person or voice behind it, its words' text and start only. */
export interface SharedSegment {
  spkName: string;
  startTime: number;
  text: string;
  words?: { text: string; startTime: number }[];
}

export interface SharedView {
  fileName: string;
  timeLen: number;
  /** null: the owner kept the default nickname, which ends with their phone's last digits */
  ownerName: string | null;
  abstracts: string;
  segments: SharedSegment[];
  /** the player's source, when the audio is shared */
  audioUrl?: string;
}

/**
 * A line's timed words for the page's script (SCRIPT's wrap), when its words are timed and still tell its text
 * (cut as the worker and the edit rule cut them: wordSpans); else undefined. Compact, as a 5-hour record has
 * some 50 000 words: for each word "gap,length,step" — characters since the word before (or the line's start),
 * its characters, centiseconds since the word before began (the first: since the record's start).
 */
export function lineWords(s: SharedSegment): string | undefined {
  const words = s.words;
  if (!words?.length) return undefined;
  const spans = wordSpans(s.text);
  if (spans.length !== words.length || spans.some((span, k) => spokenForm(span.text) !== spokenForm(words[k]!.text))) {
    return undefined;
  }
  let at = 0;
  let cs = 0;
  return spans
    .map((span, k) => {
      const start = Math.round(words[k]!.startTime / 10);
      const entry = `${span.from - at},${span.to - span.from},${start - cs}`;
      at = span.to;
      cs = start;
      return entry;
    })
    .join(" ");
}

/** The shared record: title, owner's display name, player, summary, the transcript with speakers and times. */
export function sharedRecordPage(lang: Lang, nonce: string, view: SharedView): string {
  const t = TEXT[lang];
  const summary = view.abstracts.trim()
    ? `<section class="card summary"><h2>${t.summary}</h2>${view.abstracts
        .split(/\n+/)
        .filter((p) => p.trim())
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join("")}</section>`
    : "";
  let timed = false;
  const lines = view.segments.map((s) => {
    const start = s.startTime / 1000;
    const words = lineWords(s);
    if (words) timed = true;
    return `<li class="seg" data-start="${start}"><span class="who">${escapeHtml(s.spkName)}</span><time>${clock(start)}</time><p class="text"${words ? ` data-w="${words}"` : ""}>${escapeHtml(s.text)}</p></li>`;
  });
  const segments = lines.length ? `<ol id="segments">${lines.join("\n")}</ol>` : `<p class="hint">${t.empty}</p>`;
  const player = view.audioUrl
    ? `<audio id="player" controls preload="metadata" src="${escapeHtml(view.audioUrl)}"></audio><p class="hint">${timed ? t.wordHint : t.seekHint}</p>`
    : `<p class="hint">${t.noAudio}</p>`;
  const body = `<header class="card">
<p class="brand">${t.brand}</p>
<h1>${escapeHtml(view.fileName)}</h1>
<p class="meta">${escapeHtml(fill(t.sharedBy, "name", view.ownerName ?? t.someone))} · ${fill(t.duration, "time", clock(view.timeLen))}</p>
${player}
</header>
${summary}
<section class="card"><h2>${t.transcript}</h2>
${segments}
</section>`;
  return shell({ lang, nonce, title: view.fileName, ogTitle: view.fileName, body, script: Boolean(view.audioUrl) });
}

/** The password form; the record's name is not shown before the password is given. */
export function passwordPage(lang: Lang, nonce: string, action: string, wrong: boolean): string {
  const t = TEXT[lang];
  const body = `<section class="card">
<p class="brand">${t.brand}</p>
<h1>${t.passwordTitle}</h1>
<p class="meta">${t.passwordPrompt}</p>
<form method="post" action="${escapeHtml(action)}">
<input type="password" name="password" aria-label="${t.password}" placeholder="${t.password}" required autofocus autocomplete="off" maxlength="64">
<button type="submit">${t.open}</button>
</form>
${wrong ? `<p class="error" role="alert">${t.wrongPassword}</p>` : ""}
</section>`;
  return shell({ lang, nonce, title: t.passwordTitle, body });
}

/** Why a link opens nothing; says nothing about the record behind it. */
export function noticePage(lang: Lang, nonce: string, notice: ShareNotice): string {
  const t = TEXT[lang];
  const title = t[`${notice}Title`];
  const body = `<section class="card">
<p class="brand">${t.brand}</p>
<h1>${title}</h1>
<p class="meta">${t[notice]}</p>
</section>`;
  return shell({ lang, nonce, title, body });
}
