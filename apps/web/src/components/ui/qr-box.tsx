import { QR_SIZE } from "@yuelu/contracts/constants";
import QRCode from "qrcode";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import "./qr-box.css";

/** Spec §9: the payment QR frame is 140×140 (the contracts' QR_SIZE). */
export { QR_SIZE };

type Rendered = { state: "pending" } | { state: "ready"; src: string } | { state: "failed" };

/**
 * The QR code of `value` (a payment URL) as an SVG data-URL image: SVG needs no canvas, and the
 * CSP allows data: images. `mask` lays a state over the code — 'log in to view' when there is no
 * value, 'order timed out, click to refresh' — and a mask with `onClick` is a button.
 */
export function QrBox({
  value,
  label,
  mask,
  size = QR_SIZE,
}: {
  /** what the code encodes; null draws no code (the mask says why) */
  value: string | null;
  /** the image's accessible name ('scan to pay with Alipay') */
  label: string;
  mask?: ReactNode;
  size?: number;
}) {
  const { t } = useTranslation();
  const [rendered, setRendered] = useState<Rendered>({ state: "pending" });

  useEffect(() => {
    if (value === null) return;
    let current = true;
    setRendered({ state: "pending" });
    QRCode.toString(value, { type: "svg", margin: 1, errorCorrectionLevel: "M" }).then(
      (svg) =>
        current && setRendered({ state: "ready", src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` }),
      () => current && setRendered({ state: "failed" }),
    );
    return () => {
      current = false;
    };
  }, [value]);

  return (
    <div className="qr-box" style={{ width: size, height: size }} data-testid="qr-box">
      {value !== null && rendered.state === "ready" && (
        <img src={rendered.src} alt={label} width={size} height={size} className="qr-image" />
      )}
      {value !== null && rendered.state === "pending" && (
        <div className="spinner" role="status" aria-label={t("common.loading")} />
      )}
      {value !== null && rendered.state === "failed" && <p className="qr-failed">{t("qr.failed")}</p>}
      {mask}
    </div>
  );
}

/** A state laid over the code; clickable when `onClick` is given (refresh an expired order). */
export function QrMask({ children, onClick }: { children: ReactNode; onClick?: () => void }) {
  if (onClick) {
    return (
      <button type="button" className="qr-mask qr-mask-action" onClick={onClick} data-testid="qr-mask">
        {children}
      </button>
    );
  }
  return (
    <div className="qr-mask" data-testid="qr-mask">
      {children}
    </div>
  );
}
