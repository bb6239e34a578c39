import { Readable } from "node:stream";
import type { Multipart, MultipartFile } from "@fastify/multipart";
import { AppError } from "@yuelu/domain";
import type { FastifyError, FastifyRequest } from "fastify";

/** A multipart form's fields: every value of each name, in order. */
export type FormFields = Record<string, string[]>;

/**
 * The file part's bytes as they arrive, except the end: that is held until `finish()` has read the
 * rest of the body and accepted the form. A refusal becomes the file's error, so the reader (the
 * upload service) stores nothing. `finish()` runs when the reader asks for data past the last byte —
 * never earlier, so its error always finds the reader listening.
 */
class HeldFile extends Readable {
  private sourceEnded = false;
  private wanting = false;
  private finishing = false;

  constructor(
    private readonly source: MultipartFile["file"],
    private readonly finish: () => Promise<void>,
  ) {
    super();
    source.on("data", (chunk: Buffer) => {
      this.wanting = this.push(chunk);
      if (!this.wanting) source.pause();
    });
    source.on("end", () => {
      this.sourceEnded = true;
      if (this.wanting) this.settle();
    });
    source.on("error", (error) => this.destroy(error));
    source.on("limit", () => this.emit("limit"));
    source.pause();
  }

  /** busboy's flag: the file passed its size limit */
  get truncated(): boolean {
    return this.source.truncated;
  }

  get bytesRead(): number {
    return this.source.bytesRead;
  }

  override _read() {
    this.wanting = true;
    if (this.sourceEnded) this.settle();
    else this.source.resume();
  }

  private settle() {
    if (this.finishing) return;
    this.finishing = true;
    this.finish().then(
      () => this.push(null),
      (error: Error) => this.destroy(error),
    );
  }
}

function addField(fields: FormFields, part: Multipart) {
  if (part.type !== "field") return;
  const values = fields[part.fieldname] ?? [];
  values.push(String(part.value));
  fields[part.fieldname] = values;
}

/**
 * `request` as the records upload service reads it (it calls `request.file()` and nothing else of the
 * body), for OpenAI's form: fields may come before the file (Python's client, curl as usually written)
 * or after it (the Node client sends them in the order the caller wrote them). `accept(fields)` runs
 * once the whole body is read and before the file is kept: its refusal is the upload's refusal, so a
 * bad parameter or an engine that is not ready leaves no file, no record and no charge.
 */
export function heldFormRequest(
  request: FastifyRequest,
  accept: (fields: FormFields) => Promise<void>,
): FastifyRequest {
  const file = async (options?: Parameters<FastifyRequest["file"]>[0]) => {
    const parts = request.parts(options as Parameters<FastifyRequest["parts"]>[0]);
    const fields: FormFields = {};
    for (;;) {
      const next = await parts.next();
      if (next.done) return undefined;
      const part = next.value;
      if (part.type === "field") {
        addField(fields, part);
        continue;
      }
      const restOfBody = async () => {
        try {
          for await (const later of parts) addField(fields, later);
        } catch (error) {
          // a second file part passes the one-file limit
          if ((error as FastifyError).code === "FST_FILES_LIMIT")
            throw AppError.invalid("file", "send one file per request");
          throw error;
        }
        await accept(fields);
      };
      const held = new HeldFile(part.file, restOfBody) as unknown as MultipartFile["file"];
      return { ...part, file: held, fields: {} } satisfies MultipartFile;
    }
  };
  return Object.create(request, { file: { value: file } }) as FastifyRequest;
}
