import { Readable } from "node:stream";

/**
 * A real WAV of about `totalBytes` (48 kHz stereo 16-bit: 1 GiB is ~1 h 33 min, under the 5-hour
 * limit), generated as it is read: a header, then 1 s of a 440 Hz sine repeated. Never in memory whole.
 */
export function wavStream(totalBytes) {
  const rate = 48_000;
  const channels = 2;
  const blockAlign = channels * 2;
  const dataBytes = Math.floor((totalBytes - 44) / blockAlign) * blockAlign;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(dataBytes, 40);
  const second = Buffer.alloc(rate * blockAlign);
  for (let i = 0; i < rate; i++) {
    const v = Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000);
    second.writeInt16LE(v, i * blockAlign);
    second.writeInt16LE(v, i * blockAlign + 2);
  }
  let left = dataBytes;
  return {
    size: 44 + dataBytes,
    seconds: dataBytes / (rate * blockAlign),
    stream: Readable.from(
      (function* () {
        yield header;
        while (left > 0) {
          const n = Math.min(left, second.length);
          left -= n;
          yield n === second.length ? second : second.subarray(0, n);
        }
      })(),
      { objectMode: false },
    ),
  };
}
