import { createHash } from 'node:crypto';
import type { PrismaService } from '../../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { PART_BYTES } from './attachment-files.js';

/** The most a file may hold, and the refusal once a write would take it past that (nothing is kept). */
export interface SizeLimit {
  maxBytes: number;
  tooLarge: (sizeBytes: number) => Error;
}

/** How a file is written: its size limit, and how large its parts are (`PART_BYTES`, or less: see `StatementsService`). */
export interface WriteOptions {
  limit: SizeLimit;
  partBytes?: number;
}

/** What was stored: the whole file's size and SHA-256, and the size of each part in order. */
export interface WrittenFile {
  sizeBytes: number;
  sha256: string;
  partSizes: number[];
}

/**
 * A file being written a part at a time (`AttachmentStorage.createPending`), by work that runs
 * longer than a transaction should stay open (a statement export). Each part is written as soon as
 * it is full and committed on its own, before the call's transaction has started (see
 * `PrismaService.writeBeforeWrites`): memory holds one part, whatever the file's size, and the
 * embedded database serves others between parts. The file stays `pending`, invisible to every read,
 * until `commit` marks it ready in the call's transaction.
 */
export class PendingAttachment {
  private readonly hash = createHash('sha256');
  private readonly partSizes: number[] = [];
  private readonly limit: SizeLimit;
  private readonly partBytes: number;
  /** The part being filled, reused from part to part: the file's bytes never pile up as garbage between collections. */
  private part: Buffer;
  private buffered = 0;
  private size = 0;

  constructor(
    private readonly prisma: PrismaService,
    readonly id: string,
    options: WriteOptions,
  ) {
    this.limit = options.limit;
    this.partBytes = options.partBytes ?? PART_BYTES;
    this.part = Buffer.allocUnsafe(this.partBytes);
  }

  /**
   * Appends each text (UTF-8) in order. The part is written first when a text would take it past
   * its size, so a part ends where a text ended: a writer that writes whole lines gets parts of
   * whole lines (each valid UTF-8, readable on its own). Past the size limit it throws, writing
   * nothing more.
   */
  async write(...texts: string[]): Promise<void> {
    for (const text of texts) {
      const length = Buffer.byteLength(text);
      if (this.size + length > this.limit.maxBytes) throw this.limit.tooLarge(this.size + length);
      if (this.buffered && this.buffered + length > this.partBytes) await this.flush();
      // A text longer than a part (never a CSV line in practice) makes a part of its own.
      if (length > this.part.length) this.part = Buffer.allocUnsafe(length);
      this.part.write(text, this.buffered, 'utf8');
      this.buffered += length;
      this.size += length;
    }
  }

  /**
   * Writes the last part, then marks the file ready with its size and SHA-256, in the call's
   * transaction (its first statement, when the work read everything before): the file becomes
   * visible when the call commits, with its audit row and its task's outcome, or never.
   */
  async commit(): Promise<WrittenFile> {
    if (this.buffered) await this.flush();
    const sha256 = this.hash.digest('hex');
    await this.prisma.transaction(async (tx) => {
      await tx.attachment.update({ where: { id: this.id }, data: { status: 'ready', sizeBytes: this.size, sha256 }, select: { id: true } });
    });
    return { sizeBytes: this.size, sha256, partSizes: [...this.partSizes] };
  }

  private async flush(): Promise<void> {
    const bytes = this.part.subarray(0, this.buffered);
    const seq = this.partSizes.length + 1;
    this.hash.update(bytes);
    // The driver copies the parameter into its message before this resolves: the buffer is free again after.
    await this.prisma.writeBeforeWrites(() =>
      this.prisma.sql(
        Prisma.sql`INSERT INTO attachment_parts (attachment_id, seq, bytes) VALUES (${this.id}::uuid, ${seq}::int, ${bytes})`,
      ),
    );
    this.partSizes.push(bytes.length);
    this.buffered = 0;
  }
}
