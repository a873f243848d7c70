/**
 * Links a subject of an external authorization server to a user, so that its JWTs act as that user:
 *   npm run identity:link -- --issuer <iss> --subject <sub> --email <user>
 * A user has at most one subject per issuer, and a subject one user. Without --replace the CLI
 * refuses to change an existing link: a subject linked to someone else, or a user who already has
 * another subject at that issuer (each refusal names the link in the way). With --replace the new
 * link is the one: the subject moves to this user, and the user's other subject at that issuer is
 * unlinked (its tokens are refused as not linked until it is linked again). Works against
 * DATABASE_URL, or the embedded database (also while `npm start` is running on it).
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { appConfigOrExit } from '../app-config.js';
import { runCli, withCliDatabase } from './cli-database.js';

const USAGE =
  'usage: npm run identity:link -- --issuer <iss> --subject <sub> --email <user> [--replace]\n' +
  '  A user has one subject per issuer. --replace makes this link the one: it moves a subject linked to another user,\n' +
  "  and unlinks the user's other subject at that issuer.";

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
    try {
      const unlinked = await prisma.transaction(async (tx) => {
        const existing = await tx.externalIdentity.findUnique({ where: { issuer_subject: key } });
        if (existing && existing.userId !== user.id && !replace) {
          throw new Error(`That subject is linked to another user (${existing.userId}): add --replace to move it`);
        }
        const other = await tx.externalIdentity.findFirst({ where: { issuer, userId: user.id, subject: { not: subject } } });
        if (other && !replace) throw new Error(alreadyHasSubject(user.email, other.subject, issuer));
        // One subject per user and issuer: the user's other subject goes before this one takes its place.
        if (other) await tx.externalIdentity.delete({ where: { issuer_subject: { issuer, subject: other.subject } } });
        await tx.externalIdentity.upsert({
          where: { issuer_subject: key },
          create: { ...key, userId: user.id, linkedBy: 'operator' },
          update: { userId: user.id, linkedBy: 'operator' },
        });
        return other?.subject;
      });
      if (unlinked !== undefined) console.error(`Unlinked ${unlinked} at ${issuer} (--replace: a user has one subject per issuer)`);
    } catch (error) {
      // The database's own answer to a link made meanwhile (a first sign-in by verified email, another operator).
      if ((error as { code?: string }).code === 'P2002') {
        throw new Error(
          `The links of ${subject} or ${user.email} at ${issuer} changed meanwhile (a first sign-in?): run the command again`,
        );
      }
      throw error;
    }
    console.error(`Linked ${subject} at ${issuer} to ${user.email} (${user.id})`);
  });
}

function alreadyHasSubject(email: string, other: string, issuer: string): string {
  return (
    `${email} already has another subject at ${issuer} (${other}), and a user has one subject per issuer: ` +
    'add --replace to unlink it and link this one instead'
  );
}

runCli(main);
