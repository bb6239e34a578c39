/**
 * Spec §9 message dates, in the reader's own time zone: today as HH:mm, yesterday as 'yesterday',
 * earlier this year as MM-dd, before that yyyy-MM-dd. `sendTime` is epoch seconds.
 */
export type MessageDate =
  | { kind: "today"; text: string }
  | { kind: "yesterday" }
  | { kind: "thisYear"; text: string }
  | { kind: "older"; text: string };

const pad = (n: number) => String(n).padStart(2, "0");

function dayStart(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

export function messageDate(sendTime: number, now: Date = new Date()): MessageDate {
  const sent = new Date(sendTime * 1000);
  const today = dayStart(now);
  const day = dayStart(sent);
  if (day === today) return { kind: "today", text: `${pad(sent.getHours())}:${pad(sent.getMinutes())}` };
  // the day before today's midnight (DST-proof: by calendar date, not by 24 hours)
  const yesterday = dayStart(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  if (day === yesterday) return { kind: "yesterday" };
  const md = `${pad(sent.getMonth() + 1)}-${pad(sent.getDate())}`;
  if (sent.getFullYear() === now.getFullYear()) return { kind: "thisYear", text: md };
  return { kind: "older", text: `${sent.getFullYear()}-${md}` };
}

/** The date as shown: `yesterday` is the UI's word for it ('昨天', 'Yesterday'). */
export function formatMessageDate(sendTime: number, yesterday: string, now: Date = new Date()): string {
  const date = messageDate(sendTime, now);
  return date.kind === "yesterday" ? yesterday : date.text;
}
