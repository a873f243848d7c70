import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpModule, McpTasks, McpTool, type McpInvocation } from '@nest-mcp/core';
import { TASKS_EXTENSION } from '@nest-mcp/core/extensions';
import { callStateless, callTool, startMcpTestApp, type McpTestApp } from '@nest-mcp/core/testing';

/**
 * With the in-memory defaults (no durable task store) a restart loses every queued job. The job
 * tool must then tell the agent so ("lost: start the work again"), not answer as for a wrong id
 * ("check the id"): the two call for different actions.
 */
class ReportDto {
  @IsString()
  label!: string;
}

class JobDto {
  @IsString()
  job_id!: string;
}

@Injectable()
class ReportTools {
  constructor(private readonly tasks: McpTasks) {}

  @McpTool({ name: 'report_build', description: 'Builds a report (queued).', task: 'background' })
  async build(input: ReportDto, invocation: McpInvocation) {
    // Still running when the server stops (which aborts the run).
    await new Promise((resolve) => invocation.signal?.addEventListener('abort', resolve, { once: true }));
    invocation.signal?.throwIfAborted();
    return { label: input.label };
  }

  @McpTool({ name: 'job_get', description: 'Status and result of a queued job.', annotations: { readOnlyHint: true } })
  async job(input: JobDto, invocation: McpInvocation) {
    const job = await this.tasks.job(input.job_id, invocation.httpRequest);
    if (!job) throw this.tasks.unknownJob(input.job_id);
    return job;
  }
}

@Module({
  imports: [McpModule.forRoot({ serverInfo: { name: 'lost-jobs', version: '1.0.0' }, tasks: { jobTool: 'job_get' } })],
  providers: [ReportTools],
})
class LostJobsModule {}

const TASKS = { extensions: { [TASKS_EXTENSION]: {} } };

describe('a job held in memory, after the server restarted', () => {
  let t: McpTestApp | undefined;
  after(() => t?.close());

  it('the job tool answers job_lost (start the work again), and a wrong id not_found (check the id)', async () => {
    t = await startMcpTestApp(LostJobsModule);
    const queued = await callTool(t.mcpUrl, 'report_build', { label: 'q3' });
    const jobId: string = queued.envelope.data.jobId;
    assert.match(jobId, /^[0-9a-f-]{36}$/, queued.text);
    const task = await callStateless(t.mcpUrl, 'tools/call', { name: 'report_build', arguments: { label: 'q4' } }, { capabilities: TASKS });
    const taskId: string = task.body.result.taskId;
    assert.ok(taskId, JSON.stringify(task.body));

    // Before the restart the job exists.
    assert.equal((await callTool(t.mcpUrl, 'job_get', { job_id: jobId })).envelope.ok, true);
    await t.close();
    t = await startMcpTestApp(LostJobsModule);

    const lost = await callTool(t.mcpUrl, 'job_get', { job_id: jobId });
    assert.equal(lost.body.result.isError, true);
    const [error] = lost.envelope.errors;
    assert.equal(error.code, 'job_lost');
    assert.match(error.message, new RegExp(`Job ${jobId} was lost: .*the server restarted at .*Start the work again`));

    const wrong = await callTool(t.mcpUrl, 'job_get', { job_id: '0b8f2f7e-3c1a-4d5e-9f00-1a2b3c4d5e6f' });
    assert.equal(wrong.envelope.errors[0].code, 'not_found');
    assert.match(wrong.envelope.errors[0].message, /was not found among the jobs you started: check the id/);

    // A job queued since the restart and then asked for by a mistyped id is not "lost" either.
    const fresh = await callTool(t.mcpUrl, 'report_build', { label: 'q1' });
    const typo = `${fresh.envelope.data.jobId.slice(0, -1)}${fresh.envelope.data.jobId.endsWith('0') ? '1' : '0'}`;
    assert.equal((await callTool(t.mcpUrl, 'job_get', { job_id: typo })).envelope.errors[0].code, 'not_found');
  });

  it('tasks/get of a task lost with the restart says so, where an unknown task says "not found"', async () => {
    // Runs after the first case: `t` is the restarted server and `q4`'s task was lost with the first.
    assert.ok(t);
    const lostTaskCall = await callStateless(
      t.mcpUrl,
      'tools/call',
      { name: 'report_build', arguments: { label: 'q5' } },
      { capabilities: TASKS },
    );
    const liveTaskId: string = lostTaskCall.body.result.taskId;
    await t.close();
    t = await startMcpTestApp(LostJobsModule);
    const answer = await callStateless(
      t.mcpUrl,
      'tasks/get',
      { taskId: liveTaskId },
      { capabilities: TASKS, headers: { 'mcp-name': liveTaskId } },
    );
    assert.equal(answer.body.error.code, -32602);
    assert.match(answer.body.error.message, new RegExp(`Task ${liveTaskId} was lost: .*restarted`));
    const unknown = await callStateless(
      t.mcpUrl,
      'tasks/get',
      { taskId: '0b8f2f7e-3c1a-4d5e-9f00-1a2b3c4d5e6f' },
      { capabilities: TASKS, headers: { 'mcp-name': '0b8f2f7e-3c1a-4d5e-9f00-1a2b3c4d5e6f' } },
    );
    assert.match(unknown.body.error.message, /Task not found/);
  });
});
