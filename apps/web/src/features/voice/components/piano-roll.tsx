import { useTranslation } from "react-i18next";
import { formatDuration } from "@/lib/format.ts";
import { beatsToSeconds, isBlackKey, melodyBeats, type Note, noteName, pitchRange, shiftNotes } from "../lib/melody.ts";
import "./piano-roll.css";

const KEYS_W = 38;
const ROW_H = 12;
const LYRICS_H = 32;
const MIN_PX_PER_BEAT = 34;

/**
 * The melody on a pitch/time grid (SVG): a row per semitone (black keys shaded, each C named), a
 * line per beat and a stronger one per bar, each note a bar moved by the key; under each note the
 * syllable it sings. Wider than a phone: it scrolls sideways.
 */
export function PianoRoll({
  notes,
  words,
  bpm,
  tempo = 1,
  keyShift = 0,
  beatsPerBar = 4,
  testId = "piano-roll",
}: {
  notes: readonly Note[];
  /** what each note sings; a filler (the server's "啦" / "la" on notes the lyrics leave over) is drawn paler */
  words: readonly { text: string; filler?: boolean }[];
  bpm: number;
  tempo?: number;
  keyShift?: number;
  beatsPerBar?: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const shifted = shiftNotes(notes, keyShift);
  const { low, high } = pitchRange(shifted);
  const rows = high - low + 1;
  const beats = Math.max(beatsPerBar, Math.ceil(melodyBeats(shifted)));
  const px = MIN_PX_PER_BEAT;
  const width = KEYS_W + beats * px + 8;
  const gridH = rows * ROW_H;
  const height = gridH + LYRICS_H;
  const y = (midi: number) => (high - Math.round(midi)) * ROW_H;
  const x = (beat: number) => KEYS_W + beat * px;
  const seconds = beatsToSeconds(melodyBeats(shifted), bpm, tempo);
  const summary = t("sing.rollSummary", {
    count: notes.length,
    low: noteName(low + 2),
    high: noteName(high - 2),
    time: formatDuration(seconds),
    bpm: Math.round(bpm * tempo),
  });

  return (
    <figure className="vk-roll" data-testid={testId} data-notes={notes.length} data-key={keyShift}>
      <figcaption className="vk-roll-caption muted">{summary}</figcaption>
      {/* a long melody scrolls sideways: focusable, so a keyboard can scroll it too (WCAG scrollable-region-focusable) */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <section className="vk-roll-scroll" tabIndex={0} aria-label={summary}>
        <svg
          className="vk-roll-svg"
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={summary}
        >
          {Array.from({ length: rows }, (_, i) => {
            const midi = high - i;
            return (
              <g key={midi}>
                <rect
                  x={KEYS_W}
                  y={i * ROW_H}
                  width={width - KEYS_W}
                  height={ROW_H}
                  className={isBlackKey(midi) ? "vk-roll-row black" : "vk-roll-row"}
                />
                <rect
                  x={0}
                  y={i * ROW_H}
                  width={KEYS_W - 2}
                  height={ROW_H}
                  className={isBlackKey(midi) ? "vk-roll-key black" : "vk-roll-key"}
                />
                {midi % 12 === 0 && (
                  <text x={3} y={i * ROW_H + ROW_H - 2} className="vk-roll-keyname">
                    {noteName(midi)}
                  </text>
                )}
              </g>
            );
          })}
          {Array.from({ length: beats + 1 }, (_, b) => (
            <line
              // biome-ignore lint/suspicious/noArrayIndexKey: one line per beat
              key={b}
              x1={x(b)}
              x2={x(b)}
              y1={0}
              y2={gridH}
              className={b % beatsPerBar === 0 ? "vk-roll-bar" : "vk-roll-beat"}
            />
          ))}
          {shifted.map((n, i) => (
            <g
              // biome-ignore lint/suspicious/noArrayIndexKey: notes keep their order
              key={i}
              data-testid="roll-note"
              data-midi={n.midi}
            >
              <rect
                x={x(n.start) + 0.5}
                y={y(n.midi) + 1}
                width={Math.max(3, n.duration * px - 1.5)}
                height={ROW_H - 2}
                rx={3}
                className={!words[i] || words[i].filler ? "vk-roll-note empty" : "vk-roll-note"}
              >
                <title>{`${noteName(n.midi)}${words[i] ? ` · ${words[i].text}` : ""}`}</title>
              </rect>
              {words[i] && (
                <text
                  x={x(n.start) + 2}
                  y={gridH + 13 + (n.duration * px < 30 && i % 2 === 1 ? 13 : 0)}
                  className={words[i].filler ? "vk-roll-syllable filler" : "vk-roll-syllable"}
                  data-testid="roll-syllable"
                >
                  {words[i].text}
                </text>
              )}
            </g>
          ))}
          <line x1={KEYS_W} x2={width} y1={gridH} y2={gridH} className="vk-roll-bar" />
        </svg>
      </section>
    </figure>
  );
}
