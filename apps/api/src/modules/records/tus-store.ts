import type { Readable } from "node:stream";
import { DataStore, type Upload } from "@tus/utils";
import type { UploadArea } from "@yuelu/runtime";
import { SignatureGate, UploadRefused } from "./upload.ts";

/**
 * The upload area's tus store with today's content check in front of it: the bytes written at offset 0
 * pass through the signature gate (upload.ts), which holds back the first 64 KiB (or the whole first
 * chunk when it is smaller) until their signature says audio or video. A file recognised as something
 * else (an executable, an archive…) is refused there, before a byte of it is stored, and the upload is
 * removed. Everything else is the area's store unchanged.
 */
export class CheckedUploadStore extends DataStore {
  constructor(private readonly area: UploadArea) {
    super();
    this.extensions = area.store.extensions;
  }

  override create(upload: Upload) {
    return this.area.store.create(upload);
  }

  override remove(id: string) {
    return this.area.store.remove(id);
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    if (offset > 0) return this.area.store.write(stream, id, offset);
    const gate = new SignatureGate();
    let refused: UploadRefused | undefined;
    gate.on("error", (error) => {
      if (error instanceof UploadRefused) refused = error;
    });
    stream.on("error", (error) => gate.destroy(error));
    stream.pipe(gate);
    try {
      return await this.area.store.write(gate, id, offset);
    } catch (error) {
      // The stores wrap their stream's failure in their own error: the gate's refusal is kept aside.
      if (!refused) throw error;
      stream.unpipe(gate);
      await this.area.discard(id);
      throw refused;
    }
  }

  override getUpload(id: string) {
    return this.area.store.getUpload(id);
  }

  override declareUploadLength(id: string, length: number) {
    return this.area.store.declareUploadLength(id, length);
  }

  override deleteExpired() {
    return this.area.store.deleteExpired();
  }

  override getExpiration() {
    return this.area.store.getExpiration();
  }
}
