import { useTranslation } from "react-i18next";
import { type Lang, setLang } from "@/lib/i18n.ts";
import "./language-switch.css";

/** zh ⇄ en in place: the page and its state stay, only the texts change. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === "en" ? "en" : "zh";
  return (
    <fieldset className="lang-switch">
      <legend className="sr-only">{t("common.language")}</legend>
      {(["zh", "en"] as const).map((l) => (
        <button
          key={l}
          type="button"
          aria-pressed={lang === l}
          className={lang === l ? "on" : ""}
          onClick={() => setLang(l)}
        >
          {l === "zh" ? "中文" : "EN"}
        </button>
      ))}
    </fieldset>
  );
}
