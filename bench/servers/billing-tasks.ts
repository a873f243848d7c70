// Case 8 (tasks): the real application (AppModule, configured as `npm start` configures it, tasks
// on pg-boss in the bench database, TASK_WORKERS workers per process) plus two bench-only tools
// declared `task: 'optional'`, so that the same work runs as a task for a client that declares the
// tasks extension and in the request for any other (the app has no such tool: its one task tool,
// billing_statement_export, is `task: 'background'`, queued for every client):
// - `bench_customer_summary` (what case 8 measures): the work of billing_customer_summary
//   (CustomerSummaryService.summarize, one statement), a small fixed amount of real DB work,
//   declared as a write (no `readOnlyHint`, see below) so that it takes the path of a task that writes;
// - `bench_statement_export` (BENCH_TASK_TOOL=bench_statement_export): the work of
//   billing_statement_export (StatementsService.export). Run in the request by more callers at
//   once than the database pool has connections, it starves the pool (see bench/README.md);
// - `bench_sleep` (the queue's own figures: idle pickup, burst drain, fairness): `SELECT
//   pg_sleep(ms / 1000)` in the call's transaction, a run of a known length spent waiting, not on
//   the CPU (2 cores cannot scale CPU-bound work to 4 workers), holding a database connection as
//   real work does. Its result names the process that ran it (`pid`).
//
// Two of these processes run on one database. Each boots after the other (the seed is not safe to
// run twice at once): it seeds the demo users, BENCH_TASK_WORKSPACES workspaces `bench-tasks-<n>`
// (the demo admin a member of each, the demo billing data in each, so every workspace exports the
// same rows), and mints a token per workspace (the MCP layer caps unfinished tasks per workspace:
// the load spreads its clients over these workspaces).
//
// BENCH_TASK_MAX_ACTIVE: the layer's cap on one workspace's unfinished tasks
// (`tasks.maxActivePerWorkspace`, default 20), raised for the burst and the flood of case 8 (50
// tasks of one workspace at once), through the app's own setting (MCP_TASK_MAX_ACTIVE).
import 'reflect-metadata';
import { Body, Controller, HttpCode, HttpStatus, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpCtx, type McpInvocation, McpTool, RequiredScopes } from '@nest-mcp/core';
import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { loadAppConfig } from '../../apps/billing/src/app-config.js';
import { AppModule } from '../../apps/billing/src/app.module.js';
import { configureApp } from '../../apps/billing/src/app.setup.js';
import { ALL_SCOPES, SCOPES } from '../../apps/billing/src/app.scopes.js';
import { CustomerSummaryDto, CustomerSummaryQueryDto } from '../../apps/billing/src/billing/customers/customer-summary.dto.js';
import { CustomerSummaryService } from '../../apps/billing/src/billing/customers/customer-summary.service.js';
import { StatementExportDto, type StatementExportResultDto } from '../../apps/billing/src/billing/statements/statement-export.dto.js';
import { StatementsService } from '../../apps/billing/src/billing/statements/statements.service.js';
import { StatementsModule } from '../../apps/billing/src/billing/statements/statements.module.js';
import { RequestContext } from '../../apps/billing/src/context/request-context.js';
import { PrismaService } from '../../apps/billing/src/database/prisma.service.js';
import { Prisma } from '../../apps/billing/src/generated/prisma/client.js';
import { seedDemoBilling } from '../../apps/billing/src/demo/demo-billing-data.js';
import { DEMO_ADMIN_EMAIL, seedDemo } from '../../apps/billing/src/demo/demo-seed.js';
import { WorkspaceScoped } from '../../apps/billing/src/identity/workspace-scoped.decorator.js';
import { WorkspaceScopedDto } from '../../apps/billing/src/identity/workspace-scoped.dto.js';
import { PersonalTokenService } from '../../apps/billing/src/identity/personal-token.service.js';
import { announceReady, exitOnSignal, fail, HOST, PORT } from './lifecycle.js';

class BenchSleepDto extends WorkspaceScopedDto {
  @ApiProperty({ description: 'How long the run waits (pg_sleep in its transaction), in milliseconds.', example: 100 })
  @IsInt()
  @Min(1)
  @Max(60_000)
  ms: number;
}

@WorkspaceScoped()
@Controller('bench')
class BenchTaskToolsController {
  constructor(
    private readonly summaries: CustomerSummaryService,
    private readonly statements: StatementsService,
    private readonly prisma: PrismaService,
  ) {}

  @Post('customers/summary')
  @HttpCode(HttpStatus.OK)
  @RequiredScopes(SCOPES.billingRead)
  @McpTool({
    name: 'bench_customer_summary',
    title: 'Customer billing summary (bench)',
    description:
      'Bench only: the work of billing_customer_summary (open and overdue amounts, the newest invoices of one customer), ' +
      'run as a task for a client that declared the tasks extension and in the request for any other.',
    // Not `readOnlyHint`: a read-only call gets no transaction from the call hook (`McpAuditHook`), so
    // its task row and its pg-boss job would be committed one after the other. Like the app's task
    // tool (a write), the create commits the task row, its job and its audit row in one
    // transaction, and the run commits its outcome with its audit row.
    task: 'optional',
    input: CustomerSummaryQueryDto,
    output: CustomerSummaryDto,
  })
  summary(@Body() query: CustomerSummaryQueryDto): Promise<CustomerSummaryDto> {
    return this.summaries.summarize(query);
  }

  @Post('statements/exports')
  @HttpCode(HttpStatus.OK)
  @RequiredScopes(SCOPES.billingRead, SCOPES.billingWrite)
  @McpTool({
    name: 'bench_statement_export',
    title: 'Export a period statement (bench)',
    description:
      'Bench only: the work of billing_statement_export (a CSV of the invoices and payments of a period, stored as an ' +
      'attachment), run as a task for a client that declared the tasks extension and in the request for any other.',
    task: 'optional',
    input: StatementExportDto,
  })
  async export(@Body() dto: StatementExportDto, @McpCtx() invocation: McpInvocation | undefined): Promise<StatementExportResultDto> {
    // The result DTO itself, or (the app's statement export once it links the file's resources) `{ result, resourceLinks }`.
    const exported: object = await this.statements.export(dto, invocation);
    return ('result' in exported ? exported.result : exported) as StatementExportResultDto;
  }

  @Post('sleep')
  @HttpCode(HttpStatus.OK)
  @RequiredScopes(SCOPES.billingRead)
  @McpTool({
    name: 'bench_sleep',
    title: 'Wait a fixed time (bench)',
    description:
      "Bench only: waits `ms` milliseconds in the database (pg_sleep, in the call's transaction), then answers which " +
      'process ran it; run as a task for a client that declared the tasks extension and in the request for any other.',
    // A write's path, like bench_customer_summary (see there): the create commits the task row and its job together.
    task: 'optional',
    input: BenchSleepDto,
  })
  async sleep(@Body() dto: BenchSleepDto): Promise<{ slept_ms: number; pid: number }> {
    await this.prisma.sql(Prisma.sql`SELECT pg_sleep(${dto.ms / 1000}::float8)`);
    return { slept_ms: dto.ms, pid: process.pid };
  }
}

@Module({ imports: [StatementsModule], controllers: [BenchTaskToolsController], providers: [CustomerSummaryService] })
class BenchTasksModule {}

const workspaceCount = Number(process.env.BENCH_TASK_WORKSPACES ?? 1);
const maxActive = process.env.BENCH_TASK_MAX_ACTIVE ? Number(process.env.BENCH_TASK_MAX_ACTIVE) : undefined;

try {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL must name the bench database');
  if (!Number.isInteger(workspaceCount) || workspaceCount < 1) throw new Error('BENCH_TASK_WORKSPACES must be a positive integer');
  if (maxActive !== undefined && (!Number.isInteger(maxActive) || maxActive < 1))
    throw new Error('BENCH_TASK_MAX_ACTIVE must be a positive integer');
  // The layer's cap on one workspace's unfinished tasks, as the app reads it (MCP_TASK_MAX_ACTIVE).
  if (maxActive !== undefined) process.env.MCP_TASK_MAX_ACTIVE = String(maxActive);
  // As billing-app.ts: no answer may be a 429 under load; the rate-limit guard still runs.
  process.env.RATE_LIMIT_TOKEN_PER_MINUTE ||= '1000000000';
  process.env.RATE_LIMIT_WORKSPACE_PER_MINUTE ||= '1000000000';
  // The application with its settings read now (after the overrides above), as main.ts reads them.
  const app = await NestFactory.create(
    { module: BenchTasksModule, imports: [AppModule.forRoot(loadAppConfig())] },
    { logger: ['error', 'warn'] },
  );
  configureApp(app);
  const prisma = app.get(PrismaService);
  await seedDemo(prisma);
  const slugs = Array.from({ length: workspaceCount }, (_, i) => `bench-tasks-${i + 1}`);
  await RequestContext.run({ channel: 'system' }, async () => {
    const admin = await prisma.client.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL } });
    for (const slug of slugs) {
      const workspace = await prisma.client.workspace.upsert({
        where: { slug },
        create: { slug, name: `Bench tasks ${slug.slice('bench-tasks-'.length)}` },
        update: {},
      });
      await prisma.client.membership.upsert({
        where: { userId_workspaceId: { userId: admin.id, workspaceId: workspace.id } },
        create: { userId: admin.id, workspaceId: workspace.id, role: 'admin' },
        update: { role: 'admin' },
      });
      // Only into an empty workspace: the second process finds the rows of the first.
      await seedDemoBilling(prisma, workspace.id);
    }
  });
  const tokens: string[] = [];
  for (const slug of slugs) {
    const { token } = await app.get(PersonalTokenService).mint({
      email: DEMO_ADMIN_EMAIL,
      scopes: [...ALL_SCOPES],
      workspaceSlug: slug,
      expiresInMs: 3_600_000,
      label: `npm run bench (tasks, ${slug})`,
      surfaces: ['mcp'],
    });
    tokens.push(token);
  }
  await app.listen(PORT, HOST);
  exitOnSignal();
  announceReady(app.getHttpServer().address(), {
    server: 'billing app + bench_customer_summary, bench_statement_export, bench_sleep (task: optional)',
    tokens,
    workspaces: slugs,
    taskWorkers: process.env.TASK_WORKERS ?? '2 (default)',
    taskPollMs: process.env.TASK_POLL_MS ?? '1000 (default)',
    maxActivePerWorkspace: process.env.MCP_TASK_MAX_ACTIVE ?? '20 (default)',
    maxRunningPerWorkspace: process.env.MCP_TASK_MAX_RUNNING ?? '4 (default)',
  });
} catch (error) {
  fail(error);
}
