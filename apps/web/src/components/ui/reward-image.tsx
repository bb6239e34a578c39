import { clsx } from "clsx";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { rewardKind, rewardLabel, rewardParts } from "@/lib/reward-text.ts";
import "./reward-image.css";

/**
 * Spec §9 reward images — time cards of 30 min, 1, 2, 3, 5 and 10 hours, beans, membership — drawn
 * inline (no image files): a ticket in the reward's colours, its amount, unit and emblem. Any other
 * card length gets the neutral ticket. Used by the reward popups, the tasks, and the shop's goods.
 */
interface Palette {
  from: string;
  to: string;
  ink: string;
}

const CARD_PALETTES: Record<number, Palette> = {
  1800: { from: "#3cc9b9", to: "#12917f", ink: "#ffffff" },
  3600: { from: "#5b8cff", to: "#2d55d8", ink: "#ffffff" },
  7200: { from: "#7f72ff", to: "#4a3cd0", ink: "#ffffff" },
  10800: { from: "#b678f2", to: "#7b39c9", ink: "#ffffff" },
  18000: { from: "#ffae62", to: "#ef6a2c", ink: "#ffffff" },
  36000: { from: "#f8d988", to: "#c8913a", ink: "#4a2f05" },
};
const OTHER_CARD: Palette = { from: "#8ea6cf", to: "#5b6f98", ink: "#ffffff" };
const BEANS: Palette = { from: "#ffcf70", to: "#ff8a3d", ink: "#5a2a00" };
const MEMBER: Palette = { from: "#3a3a3a", to: "#151515", ink: "#f3d9a4" };

/** The tier of a time card: one of the six spec lengths, else null (the neutral ticket). */
export function cardTier(seconds: number): number | null {
  return seconds in CARD_PALETTES ? seconds : null;
}

/** Room for the amount: from the left edge to the dashed line. */
const AMOUNT_WIDTH = 92;

/** A rough width of `text` in ems: Han characters are square, Latin letters and digits narrower. */
function ems(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u3000-\u9fff\uff00-\uffef]/u.test(ch) ? 1 : /[A-Z0-9mw]/.test(ch) ? 0.62 : 0.5;
  return width;
}

/** The amount's sizes: as large as asked, shrunk together until the number and its unit fit the ticket. */
function fitAmount(value: string, unit: string, valueSize: number, unitSize: number) {
  const width = ems(value) * valueSize + 3 + ems(unit) * unitSize;
  const scale = Math.min(1, AMOUNT_WIDTH / width);
  return { valueSize: Math.round(valueSize * scale), unitSize: Math.round(unitSize * scale) };
}

function paletteOf(type: number, amount: number): Palette {
  const kind = rewardKind(type);
  if (kind === "beans") return BEANS;
  if (kind === "member") return MEMBER;
  return CARD_PALETTES[amount] ?? OTHER_CARD;
}

export function RewardImage({
  type,
  amount,
  size = "md",
  className,
}: {
  /** 0 beans, 101–199 membership days, else a time card */
  type: number;
  /** beans, days or seconds */
  amount: number;
  size?: "sm" | "md" | "lg";
  className?: string;
}) {
  const { t } = useTranslation();
  const id = `ri${useId().replace(/[^a-zA-Z0-9]/g, "")}`;
  const kind = rewardKind(type);
  const palette = paletteOf(type, amount);
  const { value, unit } = rewardParts(t, type, amount);
  // a small ticket shows the amount alone, bigger; beans need no title (their unit says it)
  const title = size === "sm" || kind === "beans" ? "" : kind === "member" ? t("rewards.vip") : t("rewards.timeCard");
  const { valueSize, unitSize } = fitAmount(value, unit, size === "sm" ? 46 : 40, size === "sm" ? 20 : 15);
  const tier = kind === "card" ? cardTier(amount) : null;
  return (
    <svg
      className={clsx("reward-image", `reward-image-${size}`, className)}
      viewBox="0 0 160 100"
      role="img"
      aria-label={rewardLabel(t, type, amount)}
      data-kind={kind}
      data-tier={tier ?? undefined}
    >
      <defs>
        <linearGradient id={`${id}g`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={palette.from} />
          <stop offset="1" stopColor={palette.to} />
        </linearGradient>
        {/* the ticket's notches */}
        <mask id={`${id}m`}>
          <rect width="160" height="100" fill="#fff" />
          <circle cx="0" cy="50" r="8" fill="#000" />
          <circle cx="160" cy="50" r="8" fill="#000" />
        </mask>
      </defs>
      <g mask={`url(#${id}m)`}>
        <rect width="160" height="100" rx="14" fill={`url(#${id}g)`} />
        <circle cx="150" cy="6" r="46" fill="#fff" opacity="0.1" />
        <path d="M0 84 C40 70 80 98 160 78 V100 H0 Z" fill="#fff" opacity="0.08" />
        <line x1="112" y1="12" x2="112" y2="88" stroke={palette.ink} strokeOpacity="0.3" strokeDasharray="3 4" />
      </g>
      {title && (
        <text x="14" y="26" fill={palette.ink} fontSize="13" fontWeight="600" opacity="0.9">
          {title}
        </text>
      )}
      <text x="14" y={title ? 76 : 50 + valueSize * 0.36} fill={palette.ink} fontWeight="800">
        <tspan fontSize={valueSize}>{value}</tspan>
        <tspan fontSize={unitSize} fontWeight="600" dx="3">
          {unit}
        </tspan>
      </text>
      <g transform="translate(136 50)" fill="none" stroke={palette.ink} strokeWidth="2.6" strokeLinecap="round">
        {kind === "card" && (
          <>
            <circle r="13" />
            <path d="M0 -7 V0 L5 4" />
          </>
        )}
        {kind === "beans" && (
          <>
            <ellipse cx="0" cy="2" rx="9" ry="12" transform="rotate(-28)" />
            <path d="M-3 -6 C2 -2 2 6 -2 10" transform="rotate(-28)" />
          </>
        )}
        {kind === "member" && <path d="M-13 8 L-13 -6 L-6 0 L0 -10 L6 0 L13 -6 L13 8 Z" strokeLinejoin="round" />}
      </g>
    </svg>
  );
}
