/**
 * The built-in tunes of "AI sings for you" (issue 20): melodies every user may sing over, each with a
 * plain chord-and-bass accompaniment and default lyrics in both languages. The melodies are traditional
 * and long out of copyright (Twinkle Twinkle / Ah! vous dirai-je, maman, 1761; Frère Jacques, 18th
 * century; Beethoven's Ode to Joy, 1824; Mary Had a Little Lamb, 1830). The lyrics are traditional
 * (小星星, 两只老虎, Twinkle Twinkle, Are You Sleeping, Mary Had a Little Lamb and its usual Chinese
 * translation) or written for this project (both Ode to Joy texts), so none is under anyone's copyright.
 * Every lyric has exactly one syllable per melody note (splitLyrics in the worker counts them; a test
 * checks it). Pure data: no dependencies.
 */

/** One note: MIDI pitch (60 = middle C), start and duration in beats from the start of the tune. */
export interface TuneNote {
  midi: number;
  start: number;
  duration: number;
}

export interface Tune {
  id: string;
  nameZh: string;
  nameEn: string;
  /** beats (quarter notes) per minute */
  bpm: number;
  melody: TuneNote[];
  accompaniment: TuneNote[];
  lyricsZh: string;
  lyricsEn: string;
}

// C major, around middle C: the key shift moves it into a singer's range.
const C4 = 60;
const D4 = 62;
const E4 = 64;
const F4 = 65;
const G4 = 67;
const A4 = 69;
const G3 = 55;

/** A melody from [pitch, beats] pairs, each note starting where the last one ended. */
function line(notes: readonly (readonly [number, number])[]): TuneNote[] {
  let at = 0;
  return notes.map(([midi, duration]) => {
    const note = { midi, start: at, duration };
    at += duration;
    return note;
  });
}

/** Root position triads (pitch classes above the root) of the chords the tunes use. */
const CHORDS: Record<string, { root: number; tones: readonly number[] }> = {
  C: { root: 0, tones: [0, 4, 7] },
  F: { root: 5, tones: [0, 4, 7] },
  G: { root: 7, tones: [0, 4, 7] },
  G7: { root: 7, tones: [0, 4, 10] },
};

/**
 * The accompaniment: one chord per `beatsPerChord` beats — the root in the bass (C2–B2) held for the
 * chord's length, and the triad (from C3 up) struck on each of its beats, under the melody.
 */
function accompany(chords: readonly string[], beatsPerChord = 2): TuneNote[] {
  const notes: TuneNote[] = [];
  chords.forEach((name, i) => {
    const chord = CHORDS[name];
    if (!chord) throw new Error(`unknown chord ${name}`);
    const start = i * beatsPerChord;
    notes.push({ midi: 36 + chord.root, start, duration: beatsPerChord });
    for (let beat = 0; beat < beatsPerChord; beat++) {
      for (const tone of chord.tones) notes.push({ midi: 48 + chord.root + tone, start: start + beat, duration: 1 });
    }
  });
  return notes;
}

const twinkle: Tune = {
  id: "twinkle",
  nameZh: "小星星",
  nameEn: "Twinkle, Twinkle, Little Star",
  bpm: 100,
  melody: line(
    [
      [C4, C4, G4, G4, A4, A4, G4],
      [F4, F4, E4, E4, D4, D4, C4],
      [G4, G4, F4, F4, E4, E4, D4],
      [G4, G4, F4, F4, E4, E4, D4],
      [C4, C4, G4, G4, A4, A4, G4],
      [F4, F4, E4, E4, D4, D4, C4],
    ].flatMap((phrase) => phrase.map((midi, i) => [midi, i === 6 ? 2 : 1] as const)),
  ),
  // two chords a bar: | C | F C | F C | G C | C G | C G | C G | C G | C | F C | F C | G7 C |
  accompaniment: accompany("C C F C F C G C C G C G C G C G C C F C F C G7 C".split(" ")),
  lyricsZh: "一闪一闪亮晶晶，满天都是小星星。挂在天上放光明，好像许多小眼睛。一闪一闪亮晶晶，满天都是小星星。",
  lyricsEn:
    "Twinkle, twinkle, little star, how I wonder what you are! Up above the world so high, like a diamond in the sky. Twinkle, twinkle, little star, how I wonder what you are!",
};

const frereJacques: Tune = {
  id: "frere-jacques",
  nameZh: "两只老虎",
  nameEn: "Are You Sleeping (Frère Jacques)",
  bpm: 110,
  melody: line([
    [C4, 1],
    [D4, 1],
    [E4, 1],
    [C4, 1],
    [C4, 1],
    [D4, 1],
    [E4, 1],
    [C4, 1],
    [E4, 1],
    [F4, 1],
    [G4, 2],
    [E4, 1],
    [F4, 1],
    [G4, 2],
    [G4, 0.5],
    [A4, 0.5],
    [G4, 0.5],
    [F4, 0.5],
    [E4, 1],
    [C4, 1],
    [G4, 0.5],
    [A4, 0.5],
    [G4, 0.5],
    [F4, 0.5],
    [E4, 1],
    [C4, 1],
    [C4, 1],
    [G3, 1],
    [C4, 2],
    [C4, 1],
    [G3, 1],
    [C4, 2],
  ]),
  accompaniment: accompany(["C", "C", "C", "C", "C", "C", "C", "C", "C", "G", "C", "G", "C", "G", "C", "G"]),
  lyricsZh: "两只老虎，两只老虎，跑得快，跑得快。一只没有眼睛，一只没有尾巴，真奇怪，真奇怪。",
  lyricsEn:
    "Are you sleeping, are you sleeping, Brother John, Brother John? Morning bells are ringing, morning bells are ringing, ding dang dong, ding dang dong.",
};

const odeToJoy: Tune = {
  id: "ode-to-joy",
  nameZh: "欢乐颂",
  nameEn: "Ode to Joy",
  bpm: 110,
  melody: line([
    [E4, 1],
    [E4, 1],
    [F4, 1],
    [G4, 1],
    [G4, 1],
    [F4, 1],
    [E4, 1],
    [D4, 1],
    [C4, 1],
    [C4, 1],
    [D4, 1],
    [E4, 1],
    [E4, 1.5],
    [D4, 0.5],
    [D4, 2],
    [E4, 1],
    [E4, 1],
    [F4, 1],
    [G4, 1],
    [G4, 1],
    [F4, 1],
    [E4, 1],
    [D4, 1],
    [C4, 1],
    [C4, 1],
    [D4, 1],
    [E4, 1],
    [D4, 1.5],
    [C4, 0.5],
    [C4, 2],
  ]),
  accompaniment: accompany(["C", "C", "G", "G", "C", "C", "G", "G", "C", "C", "G", "G", "C", "C", "G7", "C"]),
  lyricsZh: "欢乐欢乐大家歌唱，心里充满了阳光。朋友邻居手拉着手，每天都是新希望。",
  lyricsEn:
    "Joyful, joyful, sing together, hearts are light and skies are blue; friends and neighbours, sun and weather, each new morning starts anew.",
};

const maryLamb: Tune = {
  id: "mary-had-a-little-lamb",
  nameZh: "玛丽有只小羊羔",
  nameEn: "Mary Had a Little Lamb",
  bpm: 110,
  melody: line([
    [E4, 1],
    [D4, 1],
    [C4, 1],
    [D4, 1],
    [E4, 1],
    [E4, 1],
    [E4, 2],
    [D4, 1],
    [D4, 1],
    [D4, 2],
    [E4, 1],
    [G4, 1],
    [G4, 2],
    [E4, 1],
    [D4, 1],
    [C4, 1],
    [D4, 1],
    [E4, 1],
    [E4, 1],
    [E4, 1],
    [E4, 1],
    [D4, 1],
    [D4, 1],
    [E4, 1],
    [D4, 1],
    [C4, 4],
  ]),
  accompaniment: accompany(["C", "C", "C", "C", "G", "G", "C", "C", "C", "C", "C", "C", "G", "G", "C", "C"]),
  lyricsZh: "玛丽有只小羊羔，小羊羔，小羊羔。玛丽有只小羊羔，羊毛白得像雪。",
  lyricsEn: "Mary had a little lamb, little lamb, little lamb. Mary had a little lamb, its fleece was white as snow.",
};

export const BUILT_IN_TUNES: readonly Tune[] = [twinkle, frereJacques, odeToJoy, maryLamb];
