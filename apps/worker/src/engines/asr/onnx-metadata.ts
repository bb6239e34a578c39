import { open } from "node:fs/promises";

/**
 * The metadata of an ONNX model file (ModelProto.metadata_props, field 14), read without loading the
 * model: the top-level fields are walked with positioned reads and the graph (hundreds of MB) is
 * skipped by its length. A file that is cut short or is not a protobuf at all is reported as such.
 * sherpa-onnx reads its settings from this metadata and *exits the process* when a key is missing,
 * so the engine checks them here first (sherpa.ts).
 */

export class OnnxFileError extends Error {}

const METADATA_PROPS = 14;

export async function readOnnxMetadata(file: string): Promise<Map<string, string>> {
  const handle = await open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size === 0) throw new OnnxFileError("the model file is empty");
    const metadata = new Map<string, string>();
    const head = Buffer.alloc(20);
    let offset = 0;
    while (offset < size) {
      const { bytesRead } = await handle.read(head, 0, Math.min(head.length, size - offset), offset);
      let at = 0;
      const varint = () => {
        let value = 0;
        let shift = 0;
        for (;;) {
          if (at >= bytesRead) throw new OnnxFileError(`the model file is cut short at byte ${offset + at}`);
          const byte = head[at++]!;
          value += (byte & 0x7f) * 2 ** shift;
          if (!(byte & 0x80)) return value;
          shift += 7;
          if (shift > 63) throw new OnnxFileError(`not an ONNX model (bad varint at byte ${offset})`);
        }
      };
      const tag = varint();
      const field = Math.floor(tag / 8);
      const wire = tag % 8;
      if (field === 0) throw new OnnxFileError(`not an ONNX model (field 0 at byte ${offset})`);
      let length: number;
      if (wire === 0) {
        varint(); // a number field: its value is read past, nothing follows it
        length = 0;
      } else if (wire === 1) length = 8;
      else if (wire === 5) length = 4;
      else if (wire === 2) length = varint();
      else throw new OnnxFileError(`not an ONNX model (wire type ${wire} at byte ${offset})`);
      const start = offset + at;
      if (start + length > size) {
        throw new OnnxFileError(`the model file is cut short (${size} bytes; field ${field} needs ${start + length})`);
      }
      if (field === METADATA_PROPS && wire === 2) {
        const entry = Buffer.alloc(length);
        await handle.read(entry, 0, length, start);
        const [key, value] = parseEntry(entry);
        if (key) metadata.set(key, value);
      }
      offset = start + length;
    }
    return metadata;
  } finally {
    await handle.close();
  }
}

/** A StringStringEntryProto: key (1), value (2). */
function parseEntry(bytes: Buffer): [string, string] {
  let at = 0;
  let key = "";
  let value = "";
  const varint = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) throw new OnnxFileError("a metadata entry of the model is cut short");
      v += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return v;
      shift += 7;
    }
  };
  while (at < bytes.length) {
    const tag = varint();
    if (tag % 8 !== 2) throw new OnnxFileError("a metadata entry of the model is malformed");
    const length = varint();
    const text = bytes.subarray(at, at + length).toString("utf8");
    at += length;
    if (tag >> 3 === 1) key = text;
    else if (tag >> 3 === 2) value = text;
  }
  return [key, value];
}
