import type { ReactNode } from "react";
import "./gift-card.css";

/** The coloured card of a welcome gift or a reward: the amount, big, and a line under it. */
export function GiftCard({
  tone,
  amount,
  text,
  testId,
}: {
  tone: "blue" | "orange" | "black";
  amount: ReactNode;
  text?: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`gift-card gift-${tone}`} data-testid={testId}>
      <div className="gift-amount">{amount}</div>
      {text && <div className="gift-text">{text}</div>}
    </div>
  );
}
