import { Prisma } from '../../src/generated/prisma/client.js';
import type { PrismaService } from '../../src/database/prisma.service.js';

/**
 * The bytes of a stored file as the database holds them: its parts joined in order, or, for a
 * file stored before parts existed, its `content` column. Straight from the tables, whatever its
 * status: for asserting what a run wrote (or left behind).
 */
export async function storedBytes(prisma: PrismaService, attachmentId: string): Promise<Buffer> {
  const { rows } = await prisma.sql<{ bytes: Buffer }>(Prisma.sql`
    SELECT bytes FROM (
      SELECT seq, bytes FROM attachment_parts WHERE attachment_id = ${attachmentId}::uuid
      UNION ALL
      SELECT 1, content FROM attachments WHERE id = ${attachmentId}::uuid AND content IS NOT NULL
    ) stored ORDER BY seq`);
  return Buffer.concat(rows.map((row) => row.bytes));
}

/** The parts of a stored file, in order: their sizes (no bytes). */
export async function storedPartSizes(prisma: PrismaService, attachmentId: string): Promise<number[]> {
  const { rows } = await prisma.sql<{ size: number }>(Prisma.sql`
    SELECT octet_length(bytes) AS size FROM attachment_parts WHERE attachment_id = ${attachmentId}::uuid ORDER BY seq`);
  return rows.map((row) => row.size);
}
