import {
  MAX_TRANSCRIBE_SECONDS,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_SECONDS,
  UPLOAD_EXTENSIONS,
} from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { paths } from "@/config/paths.ts";
import { benefitValues } from "@/features/cashier/lib/benefits.ts";
import { AppHeader } from "@/features/layout/components/app-header.tsx";
import { loginDialog, openCashier } from "@/lib/app-dialogs.ts";
import { formatDurationText } from "@/lib/format.ts";
import { useSession } from "@/lib/session.ts";
import { signInTo } from "@/lib/sign-in-intent.ts";
import "./landing.css";

const FEATURES = [
  { icon: "✎", title: "landing.f1Title", text: "landing.f1Text" },
  { icon: "☷", title: "landing.f2Title", text: "landing.f2Text" },
  { icon: "⇩", title: "landing.f3Title", text: "landing.f3Text" },
  { icon: "♪", title: "landing.f4Title", text: "landing.f4Text" },
];

/** A sample transcript in the UI's language (decoration). */
const MOCK_LINES = [
  { speaker: "landing.mockSpeaker1", time: "00:00:03", text: "landing.mockLine1" },
  { speaker: "landing.mockSpeaker2", time: "00:00:08", text: "landing.mockLine2" },
  { speaker: "landing.mockSpeaker1", time: "00:00:15", text: "landing.mockLine3" },
];

/**
 * Spec §2 "/": the landing page about free online recording-to-text, with sign-in and upload entry
 * points, and membership (the cashier, which loads only when opened).
 */
export default function LandingPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  // a visitor signs in on the way: once signed in, they are on the upload page (issue 43)
  const goUpload = () => (session.loggedIn ? navigate(paths.transaudio) : signInTo(paths.transaudio));
  return (
    <div className="landing">
      <AppHeader />
      <section className="hero">
        <div className="hero-text">
          <h1>{t("landing.heroTitle")}</h1>
          <p className="hero-sub">{t("landing.heroSubtitle")}</p>
          <div className="hero-actions">
            <Button size="lg" onClick={goUpload} data-testid="cta-upload">
              {t("landing.ctaUpload")}
            </Button>
            {session.loggedIn ? (
              <Button size="lg" variant="secondary" onClick={() => navigate(paths.audioList)}>
                {t("titles.audioList")}
              </Button>
            ) : (
              <Button size="lg" variant="secondary" onClick={loginDialog.open} data-testid="cta-login">
                {t("landing.ctaLogin")}
              </Button>
            )}
          </div>
          <p className="hero-gift">🎁 {t("landing.newUserGift")}</p>
        </div>
        <div className="hero-visual" aria-hidden>
          <div className="mock-wave">
            {Array.from({ length: 32 }, (_, i) => (
              // Decorative waveform bars; heights follow a fixed pattern.
              // biome-ignore lint/suspicious/noArrayIndexKey: static decoration
              <span key={i} style={{ height: `${20 + ((i * 37) % 60)}%` }} />
            ))}
          </div>
          <div className="mock-lines">
            {MOCK_LINES.map((line) => (
              <p key={line.time}>
                <b>{t(line.speaker)}</b> {line.time} {t(line.text)}
              </p>
            ))}
          </div>
        </div>
      </section>
      <section className="landing-section">
        <h2>{t("landing.featuresTitle")}</h2>
        <div className="feature-grid">
          {FEATURES.map((f) => (
            <div key={f.title} className="feature card">
              <div className="feature-icon" aria-hidden>
                {f.icon}
              </div>
              <h3>{t(f.title)}</h3>
              <p className="muted">{t(f.text)}</p>
            </div>
          ))}
        </div>
      </section>
      <section className="landing-section">
        <h2>{t("landing.stepsTitle")}</h2>
        <ol className="steps">
          {["landing.step1", "landing.step2", "landing.step3"].map((s, i) => (
            <li key={s}>
              <span className="step-n">{i + 1}</span>
              {t(s)}
            </li>
          ))}
        </ol>
        <p className="muted formats" data-testid="landing-limits">
          {/* the limits the upload box states, from the contracts (issue 43) */}
          {t("landing.formats", {
            count: UPLOAD_EXTENSIONS.length,
            size: `${MAX_UPLOAD_BYTES / 1024 ** 3} GB`,
            upload: formatDurationText(t, MAX_UPLOAD_SECONDS, "long"),
            transcribe: formatDurationText(t, MAX_TRANSCRIBE_SECONDS, "long"),
          })}
        </p>
      </section>
      <section className="landing-section landing-vip">
        <div>
          <h2>{t("landing.vipTitle")}</h2>
          <p className="muted">{t("landing.vipText", benefitValues)}</p>
        </div>
        <Button
          size="lg"
          variant="gold"
          onClick={() => openCashier({ defaultTab: "membership" })}
          data-testid="cta-vip"
        >
          {t("landing.vipCta")}
        </Button>
      </section>
      <footer className="landing-footer">
        <span>{t("landing.footer")}</span>
        <nav>
          <Link to={`${paths.helpDocument}?doc=privacy`}>{t("landing.privacy")}</Link>
          <Link to={`${paths.helpDocument}?doc=agreement`}>{t("landing.agreement")}</Link>
          <Link to={paths.helpDocument}>{t("landing.help")}</Link>
        </nav>
      </footer>
    </div>
  );
}
