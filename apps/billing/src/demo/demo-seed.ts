import { RequestContext } from '../context/request-context.js';
import type { Role } from '../generated/prisma/client.js';
import { hashPanelPassword } from '../panel/panel-password.js';
import { seedDemoBilling } from './demo-billing-data.js';
import type { PrismaService } from '../database/prisma.service.js';

export const DEMO_WORKSPACE = 'demo';
export const DEMO_ADMIN_EMAIL = 'admin@demo.test';
export const DEMO_USERS: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: DEMO_ADMIN_EMAIL, name: 'Demo Admin', role: 'admin' },
  { email: 'accountant@demo.test', name: 'Demo Accountant', role: 'accountant' },
  { email: 'viewer@demo.test', name: 'Demo Viewer', role: 'viewer' },
];

/**
 * The demo workspace and its three users (upserts, safe at every start), and, with `billing`,
 * its customers, invoices and payments (only into an empty workspace; with `history` too, two
 * more years of invoices: see seedDemoBilling). With `adminPassword`, the demo admin's
 * admin-panel password is (re)set to it (stored as an Argon2id hash).
 */
export async function seedDemo(
  prisma: PrismaService,
  options: { billing?: boolean; history?: boolean; adminPassword?: string } = {},
): Promise<void> {
  const adminHash = options.adminPassword ? await hashPanelPassword(options.adminPassword) : undefined;
  await RequestContext.run({ channel: 'system' }, async () => {
    const workspace = await prisma.client.workspace.upsert({
      where: { slug: DEMO_WORKSPACE },
      create: { slug: DEMO_WORKSPACE, name: 'Demo Company' },
      update: {},
    });
    for (const user of DEMO_USERS) {
      const passwordHash = user.email === DEMO_ADMIN_EMAIL ? adminHash : undefined;
      const row = await prisma.client.user.upsert({
        where: { email: user.email },
        create: { email: user.email, name: user.name, ...(passwordHash ? { passwordHash } : {}) },
        update: passwordHash ? { passwordHash } : {},
      });
      await prisma.client.membership.upsert({
        where: { userId_workspaceId: { userId: row.id, workspaceId: workspace.id } },
        create: { userId: row.id, workspaceId: workspace.id, role: user.role },
        update: { role: user.role },
      });
    }
    if (options.billing) await seedDemoBilling(prisma, workspace.id, { history: options.history });
  });
}
