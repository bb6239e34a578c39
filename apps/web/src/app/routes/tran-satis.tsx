import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { paths } from "../../config/paths.ts";

const CHOICES = [
  { key: "good", icon: "😊" },
  { key: "ok", icon: "😐" },
  { key: "bad", icon: "🙁" },
] as const;

/** Spec §2 /tranSatis: a satisfaction page outside the home layout. */
export default function TranSatisPage() {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<string | null>(null);
  return (
    <main className="standalone">
      {choice ? (
        <>
          <div className="standalone-code" aria-hidden>
            ✓
          </div>
          <h1 role="status">{t("satisfaction.thanks")}</h1>
          <Link className="btn btn-primary" to={paths.audioList}>
            {t("titles.audioList")}
          </Link>
        </>
      ) : (
        <>
          <h1>{t("satisfaction.title")}</h1>
          <p className="muted">{t("satisfaction.subtitle")}</p>
          <div className="satis-choices">
            {CHOICES.map((c) => (
              <button key={c.key} type="button" className="satis-choice" onClick={() => setChoice(c.key)}>
                <span aria-hidden>{c.icon}</span>
                {t(`satisfaction.${c.key}`)}
              </button>
            ))}
          </div>
        </>
      )}
    </main>
  );
}
