import { RequestContext } from '../context/request-context.js';
import type { Role } from '../generated/prisma/client.js';
import { seedDemoBilling } from './demo-billing-data.js';
import type { PrismaService } from './prisma.service.js';

export const DEMO_WORKSPACE = 'demo';
export const DEMO_USERS: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: 'admin@demo.test', name: 'Demo Admin', role: 'admin' },
  { email: 'accountant@demo.test', name: 'Demo Accountant', role: 'accountant' },
  { email: 'viewer@demo.test', name: 'Demo Viewer', role: 'viewer' },
];

/**
 * The demo workspace and its three users (upserts, safe at every start), and, with `billing`,
 * its customers, invoices and payments (only into an empty workspace).
 */
export async function seedDemo(prisma: PrismaService, options: { billing?: boolean } = {}): Promise<void> {
  await RequestContext.run({ channel: 'system' }, async () => {
    const workspace = await prisma.client.workspace.upsert({
      where: { slug: DEMO_WORKSPACE },
      create: { slug: DEMO_WORKSPACE, name: 'Demo Company' },
      update: {},
    });
    for (const user of DEMO_USERS) {
      const row = await prisma.client.user.upsert({
        where: { email: user.email },
        create: { email: user.email, name: user.name },
        update: {},
      });
      await prisma.client.membership.upsert({
        where: { userId_workspaceId: { userId: row.id, workspaceId: workspace.id } },
        create: { userId: row.id, workspaceId: workspace.id, role: user.role },
        update: { role: user.role },
      });
    }
    if (options.billing) await seedDemoBilling(prisma, workspace.id);
  });
}
