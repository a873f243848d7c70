import { RequestContext } from '../context/request-context.js';
import type { Role } from '../generated/prisma/client.js';
import type { PrismaService } from './prisma.service.js';

export const DEMO_WORKSPACE = 'demo';
export const DEMO_USERS: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: 'admin@demo.test', name: 'Demo Admin', role: 'admin' },
  { email: 'accountant@demo.test', name: 'Demo Accountant', role: 'accountant' },
  { email: 'viewer@demo.test', name: 'Demo Viewer', role: 'viewer' },
];

/** The demo workspace and its three users; safe to run at every start (upserts). */
export async function seedDemo(prisma: PrismaService): Promise<void> {
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
  });
}
