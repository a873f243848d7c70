/**
 * Links a subject of an external authorization server to a user, so that its JWTs act as that user:
 *   npm run identity:link -- --issuer <iss> --subject <sub> --email <user>
 * Relinks a subject already linked to someone else only with --replace. Works against
 * DATABASE_URL, or the embedded database (also while `npm start` is running on it).
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { appConfigOrExit } from '../app-config.js';
import { runCli, withCliDatabase } from './cli-database.js';

const USAGE = 'usage: npm run identity:link -- --issuer <iss> --subject <sub> --email <user> [--replace]';

async function main(): Promise<void> {
  // First: the settings, validated; a bad environment variable stops the CLI here, naming it.
  const config = appConfigOrExit();
  const { values } = parseArgs({
    options: { issuer: { type: 'string' }, subject: { type: 'string' }, email: { type: 'string' }, replace: { type: 'boolean' } },
  });
  const { issuer, subject, email, replace } = values;
  if (!issuer || !subject || !email) throw new Error(USAGE);
  await withCliDatabase(config, async (prisma) => {
    const user = await prisma.client.user.findUnique({ where: { email: email.toLowerCase() } });
    if (!user) throw new Error(`No user has the email ${email}`);
    const key = { issuer, subject };
    const existing = await prisma.client.externalIdentity.findUnique({ where: { issuer_subject: key } });
    if (existing && existing.userId !== user.id && !replace) {
      throw new Error(`That subject is linked to another user (${existing.userId}): add --replace to move it`);
    }
    await prisma.client.externalIdentity.upsert({
      where: { issuer_subject: key },
      create: { ...key, userId: user.id, linkedBy: 'operator' },
      update: { userId: user.id, linkedBy: 'operator' },
    });
    console.error(`Linked ${subject} at ${issuer} to ${user.email} (${user.id})`);
  });
}

runCli(main);
