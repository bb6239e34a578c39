import { useTranslation } from "react-i18next";
import { BENEFITS, type Benefit, benefitValues } from "../lib/benefits.ts";
import "./benefit-table.css";

function Mark({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={on ? "mark-on" : "mark-off"} role="img" aria-label={t(on ? "vip.available" : "vip.unavailable")}>
      {on ? "✓" : "—"}
    </span>
  );
}

function Cell({ benefit, column }: { benefit: Benefit; column: "free" | "member" }) {
  const { t } = useTranslation();
  if (benefit.compare === "values") return <>{t(`benefits.${benefit.id}.${column}`, benefitValues)}</>;
  return <Mark on={benefit.compare === "both" || column === "member"} />;
}

/** /vip's comparison, free vs member, as true as the cashier's list: shared features are ticked in both. */
export function BenefitTable() {
  const { t } = useTranslation();
  return (
    <table className="benefit-table" data-testid="benefit-table">
      <thead>
        <tr>
          <th scope="col">{t("vip.colBenefit")}</th>
          <th scope="col">{t("vip.colFree")}</th>
          <th scope="col" className="col-member">
            ♛ {t("vip.colMember")}
          </th>
        </tr>
      </thead>
      <tbody>
        {BENEFITS.map((b) => (
          <tr key={b.id} data-benefit={b.id}>
            <th scope="row">
              <span className="benefit-name">{t(`benefits.${b.id}.title`, benefitValues)}</span>
              <span className="benefit-desc">{t(`benefits.${b.id}.desc`, benefitValues)}</span>
            </th>
            <td data-column="free">
              <Cell benefit={b} column="free" />
            </td>
            <td data-column="member" className="col-member">
              <Cell benefit={b} column="member" />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
