import type { PayGoods } from "@yuelu/contracts";
import { GoodsType } from "@yuelu/contracts/constants";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { QrBox, QrMask } from "@/components/ui/qr-box.tsx";
import { paths } from "@/config/paths.ts";
import { loginDialog } from "@/lib/app-dialogs.ts";
import { formatDurationText, formatFen } from "@/lib/format.ts";
import { useSession } from "@/lib/session.ts";
import type { PayOrder } from "../hooks/use-pay-order.ts";
import { orderOf } from "../lib/pay-state.ts";
import "./pay-panel.css";

/**
 * The agreement a payer accepts: a plan (goodsType 1) cites the membership agreement (spec §2, the
 * help centre's 'membership' document, as the index links name it), duration cards the user agreement.
 */
function agreementOf(goods: PayGoods | undefined): { href: string; label: "agreementMembership" | "agreementUser" } {
  return goods?.goodsType === GoodsType.Membership
    ? { href: `${paths.helpDocument}?doc=membership`, label: "agreementMembership" }
    : { href: `${paths.helpDocument}?doc=agreement`, label: "agreementUser" };
}

/**
 * The payment QR (140×140) with its state — spec §4/§5/§8: 'log in to view' for visitors (a click
 * opens the login dialog), 'scan succeeded, pay promptly', 'order timed out, click to refresh',
 * 'payment failed, please pay again', success — the amount due, and the agreement. The cashier's
 * tabs and /order share it; `data-pay-url` carries what the code encodes (tests, support).
 */
export function PayPanel({
  goods,
  pay,
  agreement = true,
  onDone,
}: {
  goods: PayGoods | undefined;
  pay: PayOrder;
  agreement?: boolean;
  /** shows a 'done' button once paid */
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const { state, refresh } = pay;
  const order = orderOf(state);
  const value = state.phase === "idle" || state.phase === "error" ? null : (order?.payUrl ?? null);

  let mask: ReactNode = null;
  if (state.phase === "idle" && !session.loggedIn) {
    mask = <QrMask onClick={loginDialog.open}>{t("cashier.loginToView")}</QrMask>;
  } else if (state.phase === "idle" || state.phase === "issuing") {
    mask = (
      <QrMask>
        <span className="spinner" role="status" aria-label={t("cashier.generating")} />
      </QrMask>
    );
  } else if (state.phase === "closed") {
    mask = (
      <QrMask onClick={refresh}>{state.reason === "timeout" ? t("cashier.timeout") : t("cashier.payFailed")}</QrMask>
    );
  } else if (state.phase === "error" && state.unavailable) {
    mask = <QrMask>{t("cashier.paymentsOff")}</QrMask>;
  } else if (state.phase === "error") {
    mask = <QrMask onClick={refresh}>{t("cashier.qrError")}</QrMask>;
  } else if (state.phase === "paid") {
    mask = (
      <QrMask>
        <span className="pay-done-mark" aria-hidden>
          ✓
        </span>
      </QrMask>
    );
  }

  return (
    <div className="pay-panel-box">
      <div className="pay-panel" data-testid="pay-panel">
        <div
          className="pay-qr"
          data-testid="pay-qr"
          data-phase={state.phase}
          data-pay-url={value ?? ""}
          data-order-number={order?.orderNumber ?? ""}
          data-expire-time={order?.expireTime ?? ""}
        >
          <QrBox value={value} label={t("cashier.qrLabel")} mask={mask} />
        </div>
        <div className="pay-info">
          {state.phase === "paid" && goods ? (
            <div className="pay-success" data-testid="pay-success" role="status">
              <strong>{t("cashier.paid")}</strong>
              <span>
                {goods.goodsType === GoodsType.Membership
                  ? t("cashier.paidMembership", { count: goods.memberDays })
                  : t("cashier.paidCard", { duration: formatDurationText(t, goods.duration, "long") })}
              </span>
              {onDone && (
                <Button size="sm" onClick={onDone} data-testid="pay-done">
                  {t("cashier.done")}
                </Button>
              )}
            </div>
          ) : (
            <>
              <div className="pay-amount">
                <span>{t("cashier.amountDue")}</span>
                <strong data-testid="pay-amount">{goods ? formatFen(goods.priceFen, goods.currency) : "–"}</strong>
              </div>
              <p className="pay-hint">
                <span className="alipay-mark" aria-hidden />
                {t("cashier.scanHint")}
              </p>
              <p className="pay-status" role="status" data-testid="pay-status">
                {state.phase === "open" && state.scanned ? t("cashier.scanned") : ""}
              </p>
            </>
          )}
          {agreement && state.phase !== "paid" && (
            <p className="pay-agreement">
              {t("cashier.agreementPrefix")}{" "}
              <Link to={agreementOf(goods).href} target="_blank" rel="noopener">
                {t(`cashier.${agreementOf(goods).label}`)}
              </Link>
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
