import type { WebhookDelivery, WebhookEndpoint } from "@yuelu/contracts";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { Pagination } from "@/components/ui/pagination.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useResendDelivery, useSendTestWebhook, useWebhookDeliveries } from "../api/webhooks.ts";
import { eventName } from "../lib/event-name.ts";

const PAGE_SIZE = 10;
const TONES = { pending: "tone-wait", delivered: "tone-ok", failed: "tone-bad" } as const;

/** One delivery: its state, and on opening, every attempt (what the receiver said) and the body sent. */
function DeliveryItem({ delivery, endpointId }: { delivery: WebhookDelivery; endpointId: number }) {
  const { t } = useTranslation();
  const resend = useResendDelivery(endpointId);
  return (
    <li className="delivery" data-testid={`delivery-${delivery.id}`}>
      <div className="delivery-head">
        <span className={`hook-chip ${TONES[delivery.status]}`} data-testid="delivery-status">
          {t(`integrations.deliveryStatus.${delivery.status}`)}
        </span>
        <strong>{eventName(t, delivery.eventType)}</strong>
        <span className="muted">{formatDateTime(delivery.createTime)}</span>
        <span className="muted">{t("integrations.attemptsN", { count: delivery.attempts })}</span>
        {delivery.status === "pending" && delivery.nextAttemptTime > 0 && (
          <span className="muted">
            {t("integrations.nextAttempt", { time: formatDateTime(delivery.nextAttemptTime) })}
          </span>
        )}
        <Button
          size="sm"
          variant="secondary"
          className="delivery-resend"
          disabled={resend.isPending}
          onClick={() => resend.mutate(delivery.id, { onSuccess: () => toast.success(t("integrations.resent")) })}
          data-testid={`resend-${delivery.id}`}
        >
          {t("integrations.resend")}
        </Button>
      </div>
      <details>
        <summary className="muted">
          webhook-id <code>{delivery.messageId}</code>
        </summary>
        <ol className="attempts">
          {delivery.attemptList.map((a) => (
            <li key={`${a.attempt}-${a.time}`} data-testid="attempt">
              <span>{t("integrations.attemptN", { n: a.attempt })}</span>
              <span className="muted">{formatDateTime(a.time)}</span>
              <strong>{a.statusCode ?? t("integrations.noAnswer")}</strong>
              <span className="muted">{t("integrations.durationMs", { ms: a.durationMs })}</span>
              {(a.error || a.responseBody) && <pre className="attempt-body">{a.error || a.responseBody}</pre>}
            </li>
          ))}
        </ol>
        <div className="field-label">{t("integrations.payload")}</div>
        <pre className="attempt-body">{JSON.stringify(delivery.payload, null, 2)}</pre>
      </details>
    </li>
  );
}

/** An endpoint's deliveries, newest first, paged; a test event from here; refreshed while one waits. */
function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const deliveries = useWebhookDeliveries(endpoint.id, page, PAGE_SIZE);
  const test = useSendTestWebhook(endpoint.id);

  let body: ReactNode;
  if (deliveries.isPending) body = <Spinner />;
  else if (deliveries.isError) body = <ErrorState onRetry={() => void deliveries.refetch()} />;
  else if (deliveries.data.total === 0) body = <EmptyState text={t("integrations.deliveriesEmpty")} />;
  else
    body = (
      <>
        <ul className="deliveries" data-testid="deliveries">
          {deliveries.data.list.map((d) => (
            <DeliveryItem key={d.id} delivery={d} endpointId={endpoint.id} />
          ))}
        </ul>
        <Pagination page={page} pageSize={PAGE_SIZE} total={deliveries.data.total} onPage={setPage} />
      </>
    );
  return (
    <>
      <p className="hook-url-line">
        <code>{endpoint.url}</code>
      </p>
      <div className="integrations-head">
        <Button
          size="sm"
          disabled={test.isPending}
          onClick={() => test.mutate(undefined, { onSuccess: () => toast.success(t("integrations.testSent")) })}
          data-testid="send-test"
        >
          {t("integrations.sendTest")}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void deliveries.refetch()}>
          {t("integrations.refresh")}
        </Button>
      </div>
      {body}
    </>
  );
}

export function DeliveriesDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={endpoint !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("integrations.deliveriesTitle")}
      description={endpoint?.url}
      wide
    >
      {/* keyed: another endpoint starts on its first page */}
      {endpoint && <Deliveries key={endpoint.id} endpoint={endpoint} />}
    </Dialog>
  );
}
