import type { WebhookDelivery, WebhookEndpoint } from "@yuelu/contracts";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Pagination } from "@/components/ui/pagination.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { Tag } from "@/components/ui/tag.tsx";
import { useAdminWebhookDeliveries, useResendAdminDelivery, useTestAdminWebhook } from "../api/webhooks.ts";
import { compactJson, formatEpoch } from "../lib/format.ts";
import { DELIVERY_TONES, webhookEventName } from "../lib/webhooks.ts";

const PAGE_SIZE = 10;

/** One delivery: status, event, attempts (what the receiver answered, how fast), the body; re-send. */
function DeliveryItem({
  delivery,
  resending,
  onResend,
}: {
  delivery: WebhookDelivery;
  resending: boolean;
  onResend: () => void;
}) {
  const { t } = useTranslation();
  return (
    <li className="admin-delivery" data-testid={`delivery-${delivery.id}`}>
      <div className="admin-delivery-head">
        <Tag tone={DELIVERY_TONES[delivery.status]} testId="delivery-status">
          {t(`admin.webhooks.deliveryStatus.${delivery.status}`)}
        </Tag>
        <strong>{webhookEventName(t, delivery.eventType)}</strong>
        <span className="muted">{formatEpoch(delivery.createTime)}</span>
        <span className="muted">{t("admin.webhooks.attemptsN", { count: delivery.attempts })}</span>
        {delivery.status === "pending" && delivery.nextAttemptTime > 0 && (
          <span className="muted">
            {t("admin.webhooks.nextAttempt", { time: formatEpoch(delivery.nextAttemptTime) })}
          </span>
        )}
        <Button
          size="sm"
          variant="secondary"
          className="admin-delivery-resend"
          disabled={resending}
          onClick={onResend}
          data-testid={`resend-${delivery.id}`}
        >
          {t("admin.webhooks.resend")}
        </Button>
      </div>
      {delivery.attemptList.length > 0 && (
        <ol className="admin-attempts">
          {delivery.attemptList.map((a) => (
            <li key={`${a.attempt}-${a.time}`} data-testid="attempt">
              <span>{t("admin.webhooks.attemptN", { n: a.attempt })}</span>
              <span className="muted">{formatEpoch(a.time)}</span>
              <strong data-testid="attempt-code">{a.statusCode ?? t("admin.webhooks.noAnswer")}</strong>
              <span className="muted">{t("admin.webhooks.durationMs", { ms: a.durationMs })}</span>
              {(a.error || a.responseBody) && <pre className="admin-json">{a.error || a.responseBody}</pre>}
            </li>
          ))}
        </ol>
      )}
      <details>
        <summary className="muted">
          webhook-id <code className="admin-mono">{delivery.messageId}</code>
        </summary>
        <div className="field-label">{t("admin.webhooks.payload")}</div>
        <pre className="admin-json">{compactJson(delivery.payload)}</pre>
      </details>
    </li>
  );
}

/** An endpoint's deliveries, newest first, paged; a test event from here; refreshed while one waits. */
function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const deliveries = useAdminWebhookDeliveries(endpoint.id, page, PAGE_SIZE);
  const test = useTestAdminWebhook();
  const resend = useResendAdminDelivery();

  let body: ReactNode;
  if (deliveries.isPending) body = <Spinner />;
  else if (deliveries.isError) body = <ErrorState onRetry={() => void deliveries.refetch()} />;
  else if (deliveries.data.total === 0) body = <EmptyState text={t("admin.webhooks.deliveriesEmpty")} />;
  else
    body = (
      <>
        <ul className="admin-deliveries" data-testid="deliveries">
          {deliveries.data.list.map((d) => (
            <DeliveryItem
              key={d.id}
              delivery={d}
              resending={resend.isPending}
              onResend={() => resend.mutate(d.id, { onSuccess: () => toast.success(t("admin.webhooks.resent")) })}
            />
          ))}
        </ul>
        <Pagination page={page} pageSize={PAGE_SIZE} total={deliveries.data.total} onPage={setPage} />
      </>
    );
  return (
    <>
      <div className="admin-actions">
        <Button
          size="sm"
          disabled={test.isPending}
          onClick={() => test.mutate(endpoint.id, { onSuccess: () => toast.success(t("admin.webhooks.testSent")) })}
          data-testid="deliveries-send-test"
        >
          {t("admin.webhooks.sendTest")}
        </Button>
        <Button size="sm" variant="ghost" disabled={deliveries.isFetching} onClick={() => void deliveries.refetch()}>
          {t("admin.act.refresh")}
        </Button>
      </div>
      {body}
    </>
  );
}

export function WebhookDeliveriesDialog({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={endpoint !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("admin.webhooks.deliveriesTitle")}
      description={endpoint?.url}
      wide
      className="admin-dialog-xl"
    >
      {endpoint && (
        <p className="admin-mono muted admin-note" data-testid="deliveries-url">
          {endpoint.url}
        </p>
      )}
      {/* keyed: another endpoint starts on its first page */}
      {endpoint && <Deliveries key={endpoint.id} endpoint={endpoint} />}
    </Dialog>
  );
}
