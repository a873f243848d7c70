import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RequestContext } from '../../src/context/request-context.js';
import { seedDemo } from '../../src/demo/demo-seed.js';
import { PrismaService } from '../../src/database/prisma.service.js';
import { createTestDatabase, prismaOn, type TestDatabase } from '../support/test-database.js';

/**
 * A service writes a stamped model (one with created_via / updated_via) without naming the
 * channel and without a cast: the types say the columns are filled for it, the extension fills
 * them. This file does not compile when the generated types demand the two fields.
 */
describe('stamped Prisma models', () => {
  let database: TestDatabase;
  let prisma: PrismaService;
  before(async () => {
    database = await createTestDatabase();
    prisma = prismaOn(database.url);
    await seedDemo(prisma);
  });
  after(async () => {
    await prisma.onApplicationShutdown();
    await database.close();
  });

  it('creates a row with prisma.db and no channel in the data; the request channel is stamped', async () => {
    const workspace = await prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    const created = await RequestContext.run({ channel: 'mcp' }, () =>
      prisma.transaction(() =>
        prisma.db.customer.create({ data: { workspaceId: workspace.id, name: 'Typed Ltd', email: 'typed@example.com' } }),
      ),
    );
    assert.equal(created.createdVia, 'mcp');
    assert.equal(created.updatedVia, 'mcp');
  });

  it('still refuses a write outside a request context (the channel would be unknown)', async () => {
    const workspace = await prisma.client.workspace.findUniqueOrThrow({ where: { slug: 'demo' } });
    await assert.rejects(
      prisma.client.customer.create({ data: { workspaceId: workspace.id, name: 'Nobody', email: 'nobody@example.com' } }),
      /no channel is known/,
    );
  });
});
