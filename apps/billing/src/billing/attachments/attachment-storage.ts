import { Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service.js';
import { Prisma } from '../../generated/prisma/client.js';
import { PendingAttachment, type WriteOptions } from './pending-attachment.js';

/** A ready file, as reads describe it: never its bytes. */
export interface StoredFile {
  id: string;
  filename: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  /** How many parts hold its bytes, read in order from 1 (a file stored before parts existed: its one part). */
  parts: number;
}

/**
 * Where files' bytes live: `attachment_parts`, a part per row, written and read one part at a time
 * so that neither a million-row export nor its download is ever whole in memory. Files stored
 * before parts existed keep their bytes in `attachments.content`, read as their one part. A
 * `pending` file (an export still writing) is invisible here, as everywhere.
 */
@Injectable()
export class AttachmentStorage {
  private readonly logger = new Logger('AttachmentStorage');

  constructor(private readonly prisma: PrismaService) {}

  /** A ready file of the workspace; undefined when unknown, another workspace's, or still pending. */
  async find(workspaceId: string, id: string): Promise<StoredFile | undefined> {
    const { rows } = await this.prisma.sql<StoredFile>(Prisma.sql`
      SELECT a.id, a.filename, a.content_type AS "contentType", a.size_bytes AS "sizeBytes", a.sha256,
             CASE WHEN a.content IS NOT NULL THEN 1
                  ELSE (SELECT count(*)::int FROM attachment_parts p WHERE p.attachment_id = a.id) END AS parts
      FROM attachments a
      WHERE a.id = ${id}::uuid AND a.workspace_id = ${workspaceId}::uuid AND a.status = 'ready'`);
    return rows[0];
  }

  /** Part `seq` (from 1) of a file `find` answered; undefined past its last part. */
  async part(file: StoredFile, seq: number): Promise<Buffer | undefined> {
    const { rows } = await this.prisma.sql<{ bytes: Buffer }>(Prisma.sql`
      SELECT bytes FROM attachment_parts WHERE attachment_id = ${file.id}::uuid AND seq = ${seq}::int
      UNION ALL
      SELECT content FROM attachments WHERE id = ${file.id}::uuid AND content IS NOT NULL AND ${seq}::int = 1`);
    return rows[0]?.bytes;
  }

  /** The bytes of a file as a stream that reads a part only once the one before was taken (backpressure). */
  stream(file: StoredFile): Readable {
    const part = (seq: number) => this.part(file, seq);
    async function* parts(): AsyncGenerator<Buffer> {
      for (let seq = 1; seq <= file.parts; seq++) {
        const bytes = await part(seq);
        if (!bytes) throw new Error(`Attachment ${file.id}: part ${seq} of ${file.parts} is missing`);
        yield bytes;
      }
    }
    return Readable.from(parts(), { objectMode: false });
  }

  /**
   * A new file of the workspace, `pending` until `PendingAttachment.commit` marks it ready in the
   * call's transaction. Its row and parts are written outside that transaction, so whatever ends
   * the call without that commit (an error, a cancel, a timeout, a failed commit) must not leave
   * them: once the call's transaction ends, a file still pending is deleted here (a crash leaves it
   * to `PendingAttachmentsCleanup`). Work outside a transaction discards it itself on failure.
   */
  async createPending(
    file: { workspaceId: string; filename: string; contentType: string },
    options: WriteOptions,
  ): Promise<PendingAttachment> {
    const { id } = await this.prisma.writeBeforeWrites(
      async () =>
        await this.prisma.db.attachment.create({ data: { ...file, sizeBytes: 0, sha256: '', status: 'pending' }, select: { id: true } }),
    );
    if (this.prisma.inTransaction) await this.prisma.afterTransaction(() => this.discard(id));
    return new PendingAttachment(this.prisma, id, options);
  }

  /**
   * Deletes a file if it is still pending (its parts go with it); a ready file stays. Never throws:
   * it runs where the call is already failing or over, and the periodic cleanup catches what it misses.
   */
  async discard(id: string): Promise<void> {
    try {
      await this.prisma.writeBeforeWrites(() =>
        this.prisma.sql(Prisma.sql`DELETE FROM attachments WHERE id = ${id}::uuid AND status = 'pending'`),
      );
    } catch (error) {
      this.logger.warn(`Could not delete pending attachment ${id} (the cleanup will): ${(error as Error).message}`);
    }
  }
}
