import { useTranslation } from "react-i18next";
import { BENEFITS, benefitValues } from "../lib/benefits.ts";
import "./privilege-list.css";

/**
 * The cashier's 8 member privileges, by title (/vip's comparison has the details); what every
 * account has anyway reads 'included'.
 */
export function PrivilegeList() {
  const { t } = useTranslation();
  return (
    <section className="privileges" aria-labelledby="privileges-title">
      <h3 id="privileges-title" className="privileges-title">
        {t("cashier.privileges")}
      </h3>
      <ul className="privilege-list" data-testid="privileges">
        {BENEFITS.map((b) => (
          <li key={b.id} className="privilege" data-benefit={b.id}>
            <span className="privilege-icon" aria-hidden>
              {b.icon}
            </span>
            <span className="privilege-text">
              <strong>{t(`benefits.${b.id}.title`, benefitValues)}</strong>
              {b.compare === "both" && <em className="privilege-included">{t("cashier.included")}</em>}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
