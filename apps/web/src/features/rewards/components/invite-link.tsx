import { useId } from "react";
import { useTranslation } from "react-i18next";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { useUserInfo } from "@/lib/account.ts";
import { inviteLink } from "@/lib/sign-in-intent.ts";
import "./invite-link.css";

/**
 * The user's invite link, to copy (issue 43): the site's address carrying their code (`/?invite=`),
 * which opens the sign-in with the code applied — a friend who signs up with it gets the invitation
 * gift. The code alone is still shown, for telling it to someone.
 */
export function InviteLink() {
  const { t } = useTranslation();
  const info = useUserInfo();
  const id = useId();
  const code = info.data?.inviteCode;
  if (!code) return null;
  const link = inviteLink(code);
  return (
    <section className="invite-link" aria-labelledby={id} data-testid="invite-link">
      <h3 id={id}>{t("rewards.inviteTitle")}</h3>
      <p className="muted">{t("rewards.inviteText")}</p>
      <div className="invite-link-row">
        <input
          className="input"
          readOnly
          value={link}
          aria-label={t("rewards.inviteLinkLabel")}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="invite-link-url"
        />
        <CopyButton text={link} label={t("rewards.inviteCopy")} testId="invite-link-copy" />
      </div>
      <p className="muted invite-code">{t("rewards.inviteCode", { code })}</p>
    </section>
  );
}
