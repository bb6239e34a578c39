import type { AdminGiftBatchCreated, AdminGiftKind } from "@yuelu/contracts";
import { GIFT_CODE_LIMITS } from "@yuelu/contracts/constants";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { giftExportUrl, type NewGiftBatch, useCreateGiftBatch } from "../api/gifts.ts";
import { BATCH_NAME, GIFT_KINDS, GIFT_REWARD_MAX, suggestBatchName } from "../lib/gifts.ts";
import { positiveInt } from "../lib/numbers.ts";
import { NumberField, TextField } from "./form-fields.tsx";

/**
 * Creates a batch of gift codes and shows them, to copy or download. The batch name is the call's
 * idempotency key: a second press (or a retry) answers the same codes, never a second set.
 */
export function GiftBatchForm({ onShowBatch }: { onShowBatch: (batch: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const create = useCreateGiftBatch();
  const [batch, setBatch] = useState(suggestBatchName);
  const [kind, setKind] = useState<AdminGiftKind>("beans");
  const [reward, setReward] = useState("");
  const [count, setCount] = useState("10");
  const [maxUses, setMaxUses] = useState("1");
  const [expiresAt, setExpiresAt] = useState("");
  const [tried, setTried] = useState(false);
  const [created, setCreated] = useState<AdminGiftBatchCreated | null>(null);

  const batchOk = BATCH_NAME.test(batch.trim());
  const rewardValue = positiveInt(reward, GIFT_REWARD_MAX[kind]);
  const countValue = positiveInt(count, GIFT_CODE_LIMITS.count);
  const usesValue = positiveInt(maxUses, GIFT_CODE_LIMITS.maxRedemptions);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!batchOk || rewardValue === null || countValue === null || usesValue === null) return;
    const body: NewGiftBatch = {
      batch: batch.trim(),
      kind,
      reward: rewardValue,
      count: countValue,
      maxUses: usesValue,
    };
    if (expiresAt) body.expiresAt = expiresAt;
    create.mutate(body, {
      onSuccess: (result) => {
        setCreated(result);
        setBatch(suggestBatchName());
        setTried(false);
      },
    });
  };

  return (
    <div className="admin-form">
      <form className="admin-form" onSubmit={submit} noValidate data-testid="gift-batch-form">
        <TextField
          label={t("admin.gifts.batch")}
          value={batch}
          onChange={setBatch}
          maxLength={60}
          invalid={tried && !batchOk}
          hint={t("admin.gifts.batchHint")}
          testId="gift-batch-name"
        />
        <div className="admin-form-row">
          <div className="field">
            <label className="field-label" htmlFor={`${id}-kind`}>
              {t("admin.gifts.kind")}
            </label>
            <select
              id={`${id}-kind`}
              className="input select"
              value={kind}
              onChange={(e) => setKind(e.target.value as AdminGiftKind)}
              data-testid="gift-kind"
            >
              {GIFT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`admin.gifts.kinds.${k}`)}
                </option>
              ))}
            </select>
          </div>
          <NumberField
            label={t("admin.gifts.reward")}
            value={reward}
            onChange={setReward}
            invalid={tried && rewardValue === null}
            hint={t("admin.gifts.max", { max: GIFT_REWARD_MAX[kind] })}
            testId="gift-reward"
          />
        </div>
        <div className="admin-form-row">
          <NumberField
            label={t("admin.gifts.count")}
            value={count}
            onChange={setCount}
            invalid={tried && countValue === null}
            hint={t("admin.gifts.max", { max: GIFT_CODE_LIMITS.count })}
            testId="gift-count"
          />
          <NumberField
            label={t("admin.gifts.maxUses")}
            value={maxUses}
            onChange={setMaxUses}
            invalid={tried && usesValue === null}
            testId="gift-max-uses"
          />
          <div className="field">
            <label className="field-label" htmlFor={`${id}-expires`}>
              {t("admin.gifts.expiresAt")}
            </label>
            <input
              id={`${id}-expires`}
              className="input"
              type="date"
              value={expiresAt}
              onChange={(e) => setExpiresAt(e.target.value)}
              aria-describedby={`${id}-expires-hint`}
            />
            <p className="field-hint" id={`${id}-expires-hint`}>
              {t("admin.gifts.expiresHint")}
            </p>
          </div>
        </div>
        <div>
          <Button type="submit" disabled={create.isPending} data-testid="gift-generate">
            {create.isPending ? t("admin.gifts.generating") : t("admin.gifts.generate")}
          </Button>
        </div>
      </form>
      {created && <CreatedCodes created={created} onShowBatch={onShowBatch} />}
    </div>
  );
}

function CreatedCodes({
  created,
  onShowBatch,
}: {
  created: AdminGiftBatchCreated;
  onShowBatch: (batch: string) => void;
}) {
  const { t } = useTranslation();
  const all = created.codes.join("\n");
  return (
    <section className="admin-created" aria-live="polite" data-testid="gift-created" data-batch={created.batch}>
      <p>
        <strong>
          {created.created
            ? t("admin.gifts.created", { count: created.codes.length, batch: created.batch })
            : t("admin.gifts.existed", { batch: created.batch })}
        </strong>
      </p>
      <div className="admin-actions">
        <CopyButton text={all} label={t("admin.act.copyAll")} testId="gift-copy-all" />
        <a className="btn btn-secondary btn-sm" href={giftExportUrl(created.batch)} download data-testid="gift-export">
          {t("admin.gifts.exportCsv")}
        </a>
        <Button size="sm" variant="ghost" onClick={() => onShowBatch(created.batch)}>
          {t("admin.gifts.viewCodes")}
        </Button>
      </div>
      <ul className="admin-codes" aria-label={t("admin.gifts.codesLabel")}>
        {created.codes.map((code) => (
          <li key={code}>
            <code className="admin-mono" data-testid="gift-code-value">
              {code}
            </code>
            <CopyButton text={code} />
          </li>
        ))}
      </ul>
    </section>
  );
}
