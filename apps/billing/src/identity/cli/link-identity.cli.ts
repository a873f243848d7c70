/**
 * Links a subject of an external authorization server to a user, so that its JWTs act as that user:
 *   npm run identity:link -- --issuer <iss> --subject <sub> --email <user>
 * Relinks a subject already linked to someone else only with --replace. Works against
 * DATABASE_URL, or the embedded database (also while `npm start` is running on it).
 */
// First: a bad environment variable stops the CLI here, naming it.
import '../../config/environment.check.js';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { prepareDatabase } from '../../database/prepare-database.js';
import { PrismaService } from '../../database/prisma.service.js';

const USAGE = 'usage: npm run identity:link -- --issuer <iss> --subject <sub> --email <user> [--replace]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { issuer: { type: 'string' }, subject: { type: 'string' }, email: { type: 'string' }, replace: { type: 'boolean' } },
  });
  if (!values.issuer || !values.subject || !values.email) throw new Error(USAGE);
  const database = await prepareDatabase({ logger: (line) => console.error(line) });
  const prisma = new PrismaService();
  try {
    const user = await prisma.client.user.findUnique({ where: { email: values.email.toLowerCase() } });
    if (!user) throw new Error(`No user has the email ${values.email}`);
    const key = { issuer: values.issuer, subject: values.subject };
    const existing = await prisma.client.externalIdentity.findUnique({ where: { issuer_subject: key } });
    if (existing && existing.userId !== user.id && !values.replace) {
      throw new Error(`That subject is linked to another user (${existing.userId}): add --replace to move it`);
    }
    await prisma.client.externalIdentity.upsert({
      where: { issuer_subject: key },
      create: { ...key, userId: user.id, linkedBy: 'operator' },
      update: { userId: user.id, linkedBy: 'operator' },
    });
    console.error(`Linked ${values.subject} at ${values.issuer} to ${user.email} (${user.id})`);
  } finally {
    await prisma.onApplicationShutdown();
    await database.close();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
