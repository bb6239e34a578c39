import { type Lang, StatusCode } from "@yuelu/contracts";

const TEXT = {
  zh: {
    title: "支付宝（模拟）",
    brand: "支付宝 · 模拟收银台",
    note: "这是悦录内置的模拟支付网关，不会产生真实扣款",
    amount: "付款金额",
    goods: "商品",
    order: "订单号",
    pay: "确认付款",
    cancel: "取消支付",
    paying: "付款中…",
    paid: "支付成功",
    paidNote: "可以回到电脑上查看",
    cancelled: "已取消支付",
    closed: "订单已关闭或已过期，请在电脑上刷新二维码",
    missing: "找不到这笔订单",
    notOwner: "只有下单的用户可以付款：请在下单时登录悦录的浏览器中打开此页面",
    failed: "操作失败，请重试",
  },
  en: {
    title: "Alipay (mock)",
    brand: "Alipay · mock cashier",
    note: "This is Yuelu's built-in mock payment gateway: no real money moves",
    amount: "Amount",
    goods: "Item",
    order: "Order",
    pay: "Pay",
    cancel: "Cancel",
    paying: "Paying…",
    paid: "Payment successful",
    paidNote: "You can go back to your computer",
    cancelled: "Payment cancelled",
    closed: "This order is closed or has expired: refresh the QR code on your computer",
    missing: "Order not found",
    notOwner:
      "Only the person who placed this order can pay it: open this page in the browser where you are signed in to Yuelu",
    failed: "That did not work, please try again",
  },
} satisfies Record<Lang, Record<string, string>>;

/** JSON for an inline <script>: `<` escaped so no value can close the script element. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028|\u2029/g, "");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface CashierView {
  orderNumber: string;
  subject: string;
  /** "84.00" */
  amount: string;
  status: "WAIT_SCAN" | "WAIT_BUYER_PAY" | "TRADE_SUCCESS" | "TRADE_CLOSED" | "EXPIRED" | "MISSING";
}

/**
 * The mock gateway's phone-sized cashier page: what a phone on the same network shows after
 * scanning the QR. Opening it is the scan; Pay and Cancel call the gateway's JSON endpoints.
 */
export function cashierPage(lang: Lang, view: CashierView, nonce: string): string {
  const t = TEXT[lang];
  const open = view.status === "WAIT_SCAN" || view.status === "WAIT_BUYER_PAY";
  const state =
    view.status === "TRADE_SUCCESS"
      ? t.paid
      : view.status === "MISSING"
        ? t.missing
        : view.status === "TRADE_CLOSED" || view.status === "EXPIRED"
          ? t.closed
          : "";
  return `<!doctype html>
<html lang="${lang === "zh" ? "zh-CN" : "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<style nonce="${nonce}">
  * { box-sizing: border-box; }
  body { margin:0; font:16px/1.5 -apple-system,BlinkMacSystemFont,"PingFang SC","Microsoft YaHei",system-ui,sans-serif; background:#f5f6f8; color:#1f2430; }
  header { background:#1677ff; color:#fff; padding:14px 18px; font-weight:600; }
  main { max-width:420px; margin:0 auto; padding:18px; }
  .card { background:#fff; border-radius:12px; padding:22px 18px; box-shadow:0 1px 3px rgba(0,0,0,.06); }
  .amount { text-align:center; font-size:40px; font-weight:700; margin:6px 0 18px; }
  .amount small { font-size:22px; margin-right:4px; }
  dl { margin:0; display:grid; grid-template-columns:auto 1fr; gap:8px 12px; font-size:14px; }
  dt { color:#7a8194; } dd { margin:0; text-align:right; word-break:break-all; }
  button { width:100%; height:48px; border-radius:10px; font-size:17px; margin-top:14px; cursor:pointer; border:0; }
  #pay { background:#1677ff; color:#fff; }
  #cancel { background:#fff; color:#1f2430; border:1px solid #d9dce3; }
  button:disabled { opacity:.6; }
  .state { text-align:center; font-size:18px; font-weight:600; margin-top:14px; }
  .note { color:#7a8194; font-size:12px; text-align:center; margin-top:16px; }
  [hidden] { display:none !important; }
</style>
</head>
<body>
<header>${t.brand}</header>
<main>
  <div class="card">
    <div class="amount"><small>¥</small>${escapeHtml(view.amount)}</div>
    <dl>
      <dt>${t.goods}</dt><dd id="subject">${escapeHtml(view.subject)}</dd>
      <dt>${t.order}</dt><dd>${escapeHtml(view.orderNumber)}</dd>
    </dl>
    <div id="actions"${open ? "" : " hidden"}>
      <button type="button" id="pay">${t.pay}</button>
      <button type="button" id="cancel">${t.cancel}</button>
    </div>
    <div class="state" id="state" role="status" aria-live="polite">${state}</div>
  </div>
  <p class="note">${t.note}</p>
</main>
<script nonce="${nonce}">
(function () {
  var T = ${inlineJson(t)};
  var ORDER = ${inlineJson(view.orderNumber)};
  var OPEN = ${inlineJson(open)};
  var $ = function (id) { return document.getElementById(id); };
  function call(action) {
    return fetch("/mock-alipay/api/" + encodeURIComponent(ORDER) + "/" + action, {
      method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: "{}"
    }).then(function (r) { return r.json(); });
  }
  function done(text, note) {
    $("actions").hidden = true;
    $("state").textContent = text + (note ? " · " + note : "");
  }
  var NOT_OWNER = ${StatusCode.AccessDenied};
  if (OPEN) call("scan").then(function (res) { if (res.status_code !== 1) done(res.status_code === NOT_OWNER ? T.notOwner : T.closed); });
  $("pay").onclick = function () {
    $("pay").disabled = true; $("cancel").disabled = true; $("pay").textContent = T.paying;
    call("pay").then(function (res) {
      if (res.status_code === 1) done(T.paid, T.paidNote);
      else done(res.status_code === 60008 ? T.closed : res.status_code === NOT_OWNER ? T.notOwner : T.failed);
    }).catch(function () { $("pay").disabled = false; $("cancel").disabled = false; $("pay").textContent = T.pay; $("state").textContent = T.failed; });
  };
  $("cancel").onclick = function () {
    $("pay").disabled = true; $("cancel").disabled = true;
    call("fail").then(function () { done(T.cancelled); }).catch(function () { $("state").textContent = T.failed; });
  };
})();
</script>
</body>
</html>`;
}
