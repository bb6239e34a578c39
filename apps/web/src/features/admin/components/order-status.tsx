import { useTranslation } from "react-i18next";
import { Tag } from "@/components/ui/tag.tsx";
import { tradeStatusKey } from "../lib/orders.ts";

/** An order's trade status (docs/commerce.md) as a tag; a refunded order says so instead. */
export function OrderStatusTag({ tradeStatus, refunded }: { tradeStatus: number; refunded: boolean }) {
  const { t } = useTranslation();
  if (refunded) return <Tag tone="off">{t("admin.orders.refunded")}</Tag>;
  const key = tradeStatusKey(tradeStatus);
  const tone = key === "paid" || key === "finished" ? "ok" : key === "closed" ? "off" : undefined;
  return (
    <Tag tone={tone} testId="order-status">
      {t(`admin.orders.statuses.${key}`)}
    </Tag>
  );
}
