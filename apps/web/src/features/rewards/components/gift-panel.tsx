import type { GiftRedeemResult } from "@yuelu/contracts";
import { GIFT_CODE_LENGTH, isMembershipRewardType } from "@yuelu/contracts/constants";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { RewardPopup } from "@/components/ui/reward-popup.tsx";
import { ApiError } from "@/lib/api-client.ts";
import { useRedeemGiftCode } from "../api/redeem-gift-code.ts";
import { giftCodeInput, giftCodeProblem } from "../lib/gift-code.ts";
import { InviteLink } from "./invite-link.tsx";
import { MembershipPopup } from "./membership-popup.tsx";
import "./gift-panel.css";

/**
 * Spec §2 gift-pack exchange: an 8-character code (spec §5: empty and short codes are refused here,
 * before any call). Membership days (types 101–199) show the membership-claimed popup; beans and
 * time cards the reward popup. A refused code (unknown, used up, yours already) says why, inline.
 * Under it, the user's own invite link to copy.
 */
export function GiftPanel() {
  const { t } = useTranslation();
  const inputId = useId();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<GiftRedeemResult | null>(null);
  const redeem = useRedeemGiftCode();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (redeem.isPending) return;
    const problem = giftCodeProblem(code);
    if (problem) {
      setError(t(problem === "empty" ? "rewards.giftEmpty" : "rewards.giftInvalid"));
      return;
    }
    setError(null);
    redeem.mutate(code.trim(), {
      onSuccess: (granted) => {
        setResult(granted);
        setCode("");
      },
      onError: (e) => setError(e instanceof ApiError ? e.message : t("errors.generic")),
    });
  };

  return (
    <div className="gift-panel" data-testid="gift-panel">
      <GiftBox />
      <p className="gift-intro">{t("rewards.giftIntro")}</p>
      <form className="gift-form" onSubmit={onSubmit} noValidate>
        <label htmlFor={inputId} className="sr-only">
          {t("rewards.giftLabel")}
        </label>
        <input
          id={inputId}
          className="input gift-input"
          value={code}
          maxLength={GIFT_CODE_LENGTH}
          placeholder={t("rewards.giftPlaceholder")}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(e) => {
            setCode(giftCodeInput(e.target.value));
            setError(null);
          }}
          data-testid="gift-code"
        />
        <Button type="submit" disabled={redeem.isPending} data-testid="gift-redeem">
          {redeem.isPending ? t("rewards.giftRedeeming") : t("rewards.giftRedeem")}
        </Button>
      </form>
      {error && (
        <p className="error-text gift-error" id={`${inputId}-error`} role="alert" data-testid="gift-error">
          {error}
        </p>
      )}
      <p className="muted gift-rules">{t("rewards.giftRules")}</p>
      <InviteLink />
      {result &&
        (isMembershipRewardType(result.rewardType) ? (
          <MembershipPopup days={result.rewardNumber} onClose={() => setResult(null)} />
        ) : (
          <RewardPopup
            rewards={[{ type: result.rewardType, amount: result.rewardNumber }]}
            onClose={() => setResult(null)}
          />
        ))}
    </div>
  );
}

/** A gift box drawn inline, above the code. */
function GiftBox() {
  return (
    <svg className="gift-box" viewBox="0 0 120 96" aria-hidden>
      <ellipse cx="60" cy="90" rx="40" ry="5" fill="#000" opacity="0.06" />
      <rect x="20" y="40" width="80" height="48" rx="6" fill="#ff8a3d" />
      <rect x="14" y="28" width="92" height="18" rx="5" fill="#ffa862" />
      <rect x="53" y="28" width="14" height="60" fill="#ffd36b" />
      <path d="M60 28 C46 8 28 12 34 24 C38 31 52 29 60 28 Z" fill="#ffd36b" />
      <path d="M60 28 C74 8 92 12 86 24 C82 31 68 29 60 28 Z" fill="#ffd36b" />
      <circle cx="94" cy="14" r="3" fill="#3b6cf6" opacity="0.6" />
      <circle cx="22" cy="18" r="2" fill="#3b6cf6" opacity="0.5" />
      <path d="M104 52 l3 -6 l3 6 l-3 6 z" fill="#ffd36b" />
    </svg>
  );
}
