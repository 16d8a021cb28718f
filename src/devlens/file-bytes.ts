/**
 * An uploaded file's bytes, copied chunk by chunk into blocks this module allocates as the upload
 * streams in. No single large copy ever runs on the event loop (a 10 MiB Buffer.concat stalls it for
 * tens of milliseconds), and the blocks belong to no one else, so they can be transferred to a worker
 * thread as they are (a Buffer from a socket may share its memory with other Buffers; moving that
 * memory would corrupt them).
 */

const BLOCK = 1024 * 1024;
/** Pieces handed to the CSV reader, so text is decoded and parsed a little at a time. */
const SLICE = 64 * 1024;

export class FileBytes {
  private fill = BLOCK;

  private constructor(
    readonly blocks: ArrayBuffer[],
    public length: number,
  ) {
    if (blocks.length > 0) this.fill = length - (blocks.length - 1) * BLOCK;
  }

  static empty(): FileBytes {
    return new FileBytes([], 0);
  }

  /** The blocks as transferred to a worker thread, with the byte count they hold. */
  static fromBlocks(blocks: ArrayBuffer[], length: number): FileBytes {
    return new FileBytes(blocks, length);
  }

  static of(content: Uint8Array | string): FileBytes {
    const bytes = FileBytes.empty();
    bytes.append(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    return bytes;
  }

  append(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length; ) {
      if (this.fill === BLOCK) {
        this.blocks.push(new ArrayBuffer(BLOCK));
        this.fill = 0;
      }
      const n = Math.min(BLOCK - this.fill, chunk.length - at);
      new Uint8Array(this.blocks[this.blocks.length - 1]!, this.fill, n).set(chunk.subarray(at, at + n));
      this.fill += n;
      this.length += n;
      at += n;
    }
  }

  /** The content in order, as views (no copies). */
  *slices(): Generator<Buffer> {
    let left = this.length;
    for (const block of this.blocks) {
      const used = Math.min(BLOCK, left);
      for (let at = 0; at < used; at += SLICE) yield Buffer.from(block, at, Math.min(SLICE, used - at));
      left -= used;
    }
  }

  async *chunks(): AsyncGenerator<Buffer> {
    yield* this.slices();
  }
}
