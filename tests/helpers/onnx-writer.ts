/**
 * A small ONNX model writer for tests: protobuf encoding by hand (field numbers from onnx/onnx.proto)
 * and a graph builder. Enough to write models with the real input/output interface of a speech
 * model and hand-set weights, so the product's loaders and decoders run on them in CI (the same
 * trick as tests/helpers/ggml-model.ts for whisper.cpp). Not a general ONNX library.
 */

// ── protobuf wire format ──

class ProtoWriter {
  private readonly parts: Buffer[] = [];

  private raw(bytes: Buffer) {
    this.parts.push(bytes);
    return this;
  }

  private static varint(value: number | bigint): Buffer {
    let v = BigInt(value);
    if (v < 0n) v += 1n << 64n; // negative int64: two's complement, 10 bytes
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      out.push(byte);
    } while (v !== 0n);
    return Buffer.from(out);
  }

  private tag(field: number, wire: number) {
    return this.raw(ProtoWriter.varint((field << 3) | wire));
  }

  int(field: number, value: number | bigint) {
    return this.tag(field, 0).raw(ProtoWriter.varint(value));
  }

  float(field: number, value: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    return this.tag(field, 5).raw(b);
  }

  bytes(field: number, value: Buffer | string) {
    const b = typeof value === "string" ? Buffer.from(value, "utf8") : value;
    return this.tag(field, 2).raw(ProtoWriter.varint(b.length)).raw(b);
  }

  message(field: number, build: (w: ProtoWriter) => void) {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

// ── ONNX ──

export const DataType = { FLOAT: 1, INT32: 6, INT64: 7 } as const;
type DataTypeId = (typeof DataType)[keyof typeof DataType];

export interface Tensor {
  name: string;
  type: DataTypeId;
  dims: number[];
  values: ArrayLike<number>;
}

function writeTensor(w: ProtoWriter, t: Tensor) {
  for (const d of t.dims) w.int(1, d);
  w.int(2, t.type);
  w.bytes(8, t.name);
  const n = t.values.length;
  const raw = Buffer.alloc(n * (t.type === DataType.INT64 ? 8 : 4));
  for (let i = 0; i < n; i++) {
    const v = t.values[i]!;
    if (t.type === DataType.FLOAT) raw.writeFloatLE(v, i * 4);
    else if (t.type === DataType.INT32) raw.writeInt32LE(v, i * 4);
    else raw.writeBigInt64LE(BigInt(v), i * 8);
  }
  w.bytes(9, raw);
}

type Attribute = number | number[] | string;

function writeAttribute(w: ProtoWriter, name: string, value: Attribute) {
  w.bytes(1, name);
  if (typeof value === "string") w.int(20, 3).bytes(4, value);
  else if (Array.isArray(value)) {
    w.int(20, 7);
    for (const v of value) w.int(8, v);
  } else if (Number.isInteger(value)) w.int(20, 2).int(3, value);
  else w.int(20, 1).float(2, value);
}

/** A dimension: a size, or a name for one that varies (batch, frames). */
type Dim = number | string;

function writeValueInfo(w: ProtoWriter, name: string, type: DataTypeId, dims: Dim[]) {
  w.bytes(1, name);
  w.message(2, (typeProto) =>
    typeProto.message(1, (tensorType) => {
      tensorType.int(1, type);
      tensorType.message(2, (shape) => {
        for (const d of dims) shape.message(1, (dim) => (typeof d === "number" ? dim.int(1, d) : dim.bytes(2, d)));
      });
    }),
  );
}

export class GraphBuilder {
  private readonly inputs: [string, DataTypeId, Dim[]][] = [];
  private readonly outputs: [string, DataTypeId, Dim[]][] = [];
  private readonly initializers: Tensor[] = [];
  private readonly nodes: { op: string; inputs: string[]; outputs: string[]; attributes: Record<string, Attribute> }[] =
    [];
  private counter = 0;

  input(name: string, type: DataTypeId, dims: Dim[]): string {
    this.inputs.push([name, type, dims]);
    return name;
  }

  output(name: string, type: DataTypeId, dims: Dim[]) {
    this.outputs.push([name, type, dims]);
  }

  /** A constant tensor (an initializer); answers its name. */
  constant(type: DataTypeId, dims: number[], values: ArrayLike<number>, name = `c${this.counter++}`): string {
    this.initializers.push({ name, type, dims, values });
    return name;
  }

  /** One node; answers its (first) output's name. */
  op(op: string, inputs: string[], attributes: Record<string, Attribute> = {}, output = `t${this.counter++}`): string {
    this.nodes.push({ op, inputs, outputs: [output], attributes });
    return output;
  }

  /** The model file's bytes: IR 7, opset 13, with `metadata` as the model's metadata_props. */
  model(metadata: Record<string, string | number>, producer = "yuelu-tests"): Buffer {
    const w = new ProtoWriter();
    w.int(1, 7); // ir_version
    w.bytes(2, producer);
    w.message(7, (g) => {
      for (const n of this.nodes) {
        g.message(1, (node) => {
          for (const i of n.inputs) node.bytes(1, i);
          for (const o of n.outputs) node.bytes(2, o);
          node.bytes(3, `${n.op}_${n.outputs[0]}`);
          node.bytes(4, n.op);
          for (const [k, v] of Object.entries(n.attributes)) node.message(5, (a) => writeAttribute(a, k, v));
        });
      }
      g.bytes(2, "graph");
      for (const t of this.initializers) g.message(5, (tensor) => writeTensor(tensor, t));
      for (const [name, type, dims] of this.inputs) g.message(11, (v) => writeValueInfo(v, name, type, dims));
      for (const [name, type, dims] of this.outputs) g.message(12, (v) => writeValueInfo(v, name, type, dims));
    });
    w.message(8, (opset) => opset.bytes(1, "").int(2, 13));
    for (const [key, value] of Object.entries(metadata)) {
      w.message(14, (entry) => entry.bytes(1, key).bytes(2, String(value)));
    }
    return w.finish();
  }
}
