import {
  INVITE_CODE_PATTERN,
  type Lang,
  LOGIN_SIZE_MESSAGE,
  LOGIN_SUCCESS_MESSAGE,
  StatusCode,
} from "@yuelu/contracts";
import { POW_SOLVER_JS } from "./pow-solver.ts";

const TEXT = {
  zh: {
    title: "登录悦录",
    subtitle: "未注册的手机号验证后将自动创建账号",
    tabSms: "验证码登录",
    tabPassword: "密码登录",
    phone: "手机号",
    phonePlaceholder: "请输入手机号",
    code: "验证码",
    codePlaceholder: "6位验证码",
    getCode: "获取验证码",
    resend: "{s}秒后重发",
    password: "密码",
    passwordPlaceholder: "请输入密码",
    setPassword: "同时设置登录密码（可选，至少8位）",
    submit: "登录",
    agree: "登录即表示同意{agreement}和{privacy}",
    agreement: "《用户协议》",
    privacy: "《隐私政策》",
    badPhone: "请输入正确的11位手机号",
    badCode: "请输入6位验证码",
    badPassword: "密码至少8位",
    sent: "验证码已发送",
    verifying: "正在进行安全验证，请稍候…",
    devCode: "开发模式验证码：",
    codeInLog: "未配置短信网关：验证码已写入服务器日志，请向管理员索取",
    network: "网络错误，请稍后重试",
    success: "登录成功",
    invited: "已使用邀请码 {code}：新注册的账号将获得邀请礼包",
  },
  en: {
    title: "Sign in to Yuelu",
    subtitle: "A new phone number gets an account after verification",
    tabSms: "SMS code",
    tabPassword: "Password",
    phone: "Phone",
    phonePlaceholder: "Mobile number",
    code: "Code",
    codePlaceholder: "6-digit code",
    getCode: "Get code",
    resend: "Resend in {s}s",
    password: "Password",
    passwordPlaceholder: "Your password",
    setPassword: "Also set a password (optional, 8+ characters)",
    submit: "Sign in",
    agree: "By signing in you agree to the {agreement} and the {privacy}",
    agreement: "User Agreement",
    privacy: "Privacy Policy",
    badPhone: "Enter a valid 11-digit mobile number",
    badCode: "Enter the 6-digit code",
    badPassword: "The password needs at least 8 characters",
    sent: "Code sent",
    verifying: "Running a quick security check…",
    devCode: "Development code: ",
    codeInLog: "No SMS gateway is configured: the code was written to the server's log. Ask the operator for it.",
    network: "Network error, please try again",
    success: "Signed in",
    invited: "Invite code {code} applied: a new account gets the invitation gift",
  },
} satisfies Record<Lang, Record<string, string>>;

/** JSON for an inline <script>: `<` escaped so no value can close the script element. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028|\u2029/g, "");
}

/**
 * The account service's login page, made for the SPA's login iframe (ARCHITECTURE §3). On success
 * it posts `{type: "login-success"}` to its parent; opened on its own it follows `redir`. An `invite`
 * query parameter of its own URL is sent along as the login's `inviteCode`.
 */
export function loginPage(lang: Lang, redir: string, nonce: string): string {
  const t = TEXT[lang];
  // The documents open beside the sign-in (a new tab), so the half-filled form stays.
  const doc = (name: "agreement" | "privacy") =>
    `<a href="/helpDocument?doc=${name}&amp;lang=${lang}" target="_blank" rel="noopener">${t[name]}</a>`;
  const agree = t.agree.replace("{agreement}", doc("agreement")).replace("{privacy}", doc("privacy"));
  return `<!doctype html>
<html lang="${lang === "zh" ? "zh-CN" : "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<style nonce="${nonce}">
  :root { --brand:#2f5ae0; --brand-dark:#2447b8; --text:#1f2430; --muted:#666c80; --line:#d5d9e3; --danger:#c62f35; }
  * { box-sizing: border-box; }
  body { margin:0; font:15px/1.5 -apple-system,BlinkMacSystemFont,"PingFang SC","Microsoft YaHei",system-ui,sans-serif; color:var(--text); background:#fff; }
  main { max-width:380px; margin:0 auto; padding:28px 24px; }
  h1 { font-size:22px; margin:0 0 4px; }
  .sub { color:var(--muted); font-size:13px; margin:0 0 20px; }
  .tabs { display:flex; gap:24px; border-bottom:1px solid var(--line); margin-bottom:18px; }
  .tabs button { background:none; border:0; padding:8px 0; font-size:15px; color:var(--muted); cursor:pointer; border-bottom:2px solid transparent; }
  .tabs button[aria-selected="true"] { color:var(--brand); border-bottom-color:var(--brand); font-weight:600; }
  label { display:block; font-size:13px; color:var(--muted); margin:12px 0 6px; }
  .row { display:flex; gap:8px; }
  input { width:100%; height:42px; padding:0 12px; border:1px solid var(--line); border-radius:8px; font-size:15px; outline:none; }
  input:focus { border-color:var(--brand); box-shadow:0 0 0 3px rgba(59,108,246,.15); }
  .code-btn { flex:none; width:128px; height:42px; border:1px solid var(--brand); color:var(--brand); background:#fff; border-radius:8px; cursor:pointer; font-size:14px; }
  .code-btn:disabled { color:var(--muted); border-color:var(--line); cursor:default; }
  .submit { width:100%; height:44px; margin-top:22px; border:0; border-radius:8px; background:var(--brand); color:#fff; font-size:16px; cursor:pointer; }
  .submit:hover { background:var(--brand-dark); }
  .submit:disabled { opacity:.6; cursor:default; }
  .msg { min-height:20px; margin-top:10px; font-size:13px; }
  .msg.error { color:var(--danger); }
  .msg.info { color:var(--brand); }
  .invite { margin:-10px 0 16px; padding:8px 10px; border-radius:8px; background:#fff4e8; color:#a4541a; font-size:13px; }
  .agree { color:var(--muted); font-size:12px; margin:14px 0 0; text-align:center; }
  .agree a { color:var(--brand); text-decoration:none; }
  .agree a:hover { text-decoration:underline; }
  [hidden] { display:none !important; }
  /* Inside the app's login dialog, the dialog carries the title. */
  .framed main { padding: 8px 4px 4px; }
  .framed h1 { display:none; }
  /* A phone's dialog is narrow: tighter spacing keeps the consent line in view. */
  @media (max-width: 400px) {
    .sub { margin-bottom: 12px; }
    label { margin: 8px 0 4px; }
    .code-btn { width: 112px; }
    .submit { margin-top: 16px; }
    .msg { margin-top: 6px; }
  }
</style>
</head>
<body>
<main>
  <h1>${t.title}</h1>
  <p class="sub">${t.subtitle}</p>
  <p class="invite" id="invite" data-testid="login-invite" hidden></p>
  <div class="tabs" role="tablist">
    <button type="button" role="tab" id="tab-sms" aria-selected="true">${t.tabSms}</button>
    <button type="button" role="tab" id="tab-password" aria-selected="false">${t.tabPassword}</button>
  </div>
  <form id="form" novalidate>
    <label for="phone">${t.phone}</label>
    <input id="phone" name="phone" type="tel" inputmode="numeric" autocomplete="tel" maxlength="14" placeholder="${t.phonePlaceholder}">
    <div id="sms-fields">
      <label for="code">${t.code}</label>
      <div class="row">
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" placeholder="${t.codePlaceholder}">
        <button type="button" class="code-btn" id="send">${t.getCode}</button>
      </div>
      <label for="new-password">${t.setPassword}</label>
      <input id="new-password" type="password" autocomplete="new-password" maxlength="64">
    </div>
    <div id="password-fields" hidden>
      <label for="password">${t.password}</label>
      <input id="password" type="password" autocomplete="current-password" maxlength="64" placeholder="${t.passwordPlaceholder}">
    </div>
    <button type="submit" class="submit" id="submit">${t.submit}</button>
    <div class="msg" id="msg" role="status" aria-live="polite"></div>
    <p class="agree" id="agree">${agree}</p>
  </form>
</main>
<script nonce="${nonce}">${POW_SOLVER_JS}
(function () {
  var CHALLENGE_REQUIRED = ${StatusCode.ChallengeRequired};
  var T = ${inlineJson(t)};
  var LANG = ${inlineJson(lang)};
  var REDIR = ${inlineJson(redir)};
  // An invite link (/account/login?invite=CODE) passes the inviter's code on to the sign-up, and says so.
  var INVITE = (new URLSearchParams(location.search).get("invite") || "").trim().toUpperCase();
  if (!${INVITE_CODE_PATTERN}.test(INVITE)) INVITE = "";
  if (INVITE) {
    var invited = document.getElementById("invite");
    invited.textContent = T.invited.replace("{code}", INVITE);
    invited.hidden = false;
  }
  var mode = "sms";
  var $ = function (id) { return document.getElementById(id); };
  var framed = window.parent && window.parent !== window;
  if (framed) {
    document.body.classList.add("framed");
    // The dialog sizes its frame to this page, so the consent line is never cut off.
    var tellSize = function () {
      window.parent.postMessage({ type: "${LOGIN_SIZE_MESSAGE}", height: Math.ceil(document.querySelector("main").getBoundingClientRect().height) }, location.origin);
    };
    if (window.ResizeObserver) new ResizeObserver(tellSize).observe(document.querySelector("main"));
    tellSize();
  }
  function say(text, kind) { var m = $("msg"); m.textContent = text || ""; m.className = "msg " + (kind || "error"); }
  function phone() { return $("phone").value.replace(/\\s+/g, ""); }
  function validPhone() { return /^(\\+?86)?1[3-9]\\d{9}$/.test(phone()); }
  function post(path, body) {
    return fetch(path + "?lang=" + LANG, {
      method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json", lang: LANG },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json(); });
  }
  function select(next) {
    mode = next;
    $("tab-sms").setAttribute("aria-selected", String(next === "sms"));
    $("tab-password").setAttribute("aria-selected", String(next === "password"));
    $("sms-fields").hidden = next !== "sms";
    $("password-fields").hidden = next !== "password";
    say("");
  }
  $("tab-sms").onclick = function () { select("sms"); };
  $("tab-password").onclick = function () { select("password"); };
  var timer = null;
  function countdown(seconds) {
    var btn = $("send"); btn.disabled = true;
    var left = seconds;
    btn.textContent = T.resend.replace("{s}", left);
    timer = setInterval(function () {
      left -= 1;
      if (left <= 0) { clearInterval(timer); btn.disabled = false; btn.textContent = T.getCode; return; }
      btn.textContent = T.resend.replace("{s}", left);
    }, 1000);
  }
  function failed(text) { $("send").disabled = false; say(text); }
  // Many codes asked from this address lately: the server wants a proof of work, solved here.
  function sendWithChallenge() {
    say(T.verifying, "info");
    fetch("/account/api/sms/challenge?lang=" + LANG, { credentials: "same-origin", headers: { lang: LANG } })
      .then(function (r) { return r.json(); })
      .then(function (res) {
        if (res.status_code !== 1) return failed(res.status_msg);
        POW.solve(res.data, function (payload) { if (payload) sendCode(payload); else failed(T.network); });
      })
      .catch(function () { failed(T.network); });
  }
  function sendCode(altcha) {
    var body = { phone: phone() };
    if (altcha) body.altcha = altcha;
    post("/account/api/sms/send", body).then(function (res) {
      if (res.status_code === CHALLENGE_REQUIRED && !altcha) return sendWithChallenge();
      if (res.status_code !== 1) return failed(res.status_msg);
      countdown(60);
      if (res.data && res.data.devCode) { $("code").value = res.data.devCode; say(T.devCode + res.data.devCode, "info"); }
      else if (res.data && res.data.codeIn === "log") say(T.codeInLog, "info");
      else say(T.sent, "info");
    }).catch(function () { failed(T.network); });
  }
  $("send").onclick = function () {
    if (!validPhone()) return say(T.badPhone);
    $("send").disabled = true;
    sendCode(null);
  };
  $("form").onsubmit = function (e) {
    e.preventDefault();
    if (!validPhone()) return say(T.badPhone);
    var body = { phone: phone() };
    if (INVITE) body.inviteCode = INVITE;
    if (mode === "sms") {
      var code = $("code").value.trim();
      if (!/^\\d{6}$/.test(code)) return say(T.badCode);
      body.code = code;
      var np = $("new-password").value;
      if (np) { if (np.length < 8) return say(T.badPassword); body.password = np; }
    } else {
      var pw = $("password").value;
      if (pw.length < 8) return say(T.badPassword);
      body.password = pw;
    }
    $("submit").disabled = true;
    post("/account/api/login", body).then(function (res) {
      $("submit").disabled = false;
      if (res.status_code !== 1) return say(res.status_msg);
      say(T.success, "info");
      var message = { type: "${LOGIN_SUCCESS_MESSAGE}", userId: res.data.userId, userName: res.data.userName };
      if (framed) window.parent.postMessage(message, location.origin);
      else location.href = REDIR;
    }).catch(function () { $("submit").disabled = false; say(T.network); });
  };
})();
</script>
</body>
</html>`;
}
