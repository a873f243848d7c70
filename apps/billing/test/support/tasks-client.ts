import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { TASKS_EXTENSION } from '@nest-mcp/core/extensions';
import { envelope } from '@nest-mcp/core/testing';
import { bearer } from './billing-app.js';

export type JsonRpcAnswer = { id?: number; result?: any; error?: { code: number; message: string; data?: unknown } };

const TASKS_CAPABILITIES = { extensions: { [TASKS_EXTENSION]: {} } };

/**
 * A 2026-07-28 client on the official 2.x client's Streamable HTTP transport. Its `Client` cannot
 * follow a task (it refuses `resultType: "task"` and has no `tasks/*` for this era), so requests go
 * through the transport as that client would send them: the `_meta` envelope declaring the tasks
 * extension, and the headers the transport derives from it (`MCP-Protocol-Version`, `Mcp-Method`,
 * `Mcp-Name`, which must equal `taskId` on `tasks/*`).
 */
export class TasksClient {
  private readonly transport: StreamableHTTPClientTransport;
  private readonly waiting = new Map<number, (answer: JsonRpcAnswer) => void>();
  private nextId = 1;

  constructor(
    url: string,
    token: string,
    /** The clientInfo name the client gives (audit rows carry it). */
    private readonly name: string,
  ) {
    this.transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer(token) } });
    this.transport.onmessage = (message) => {
      const answer = message as JsonRpcAnswer;
      if (typeof answer.id === 'number') this.waiting.get(answer.id)?.(answer);
    };
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  async request(method: string, params: Record<string, unknown>): Promise<JsonRpcAnswer> {
    const id = this.nextId++;
    const answered = new Promise<JsonRpcAnswer>((resolve) => this.waiting.set(id, resolve));
    const _meta = envelope(TASKS_CAPABILITIES, { name: this.name, version: '2.0.0' });
    await this.transport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta } });
    const answer = await answered;
    this.waiting.delete(id);
    return answer;
  }

  /**
   * `tasks/get` until the task is finished (or `until` says stop), for at most `timeoutMs`; the last
   * `DetailedTask`. `meanwhile` runs before each poll (a look at the database while the task runs).
   */
  async poll(
    taskId: string,
    until: (task: any) => boolean = (task) => task.status !== 'working',
    timeoutMs = 60_000,
    meanwhile?: () => Promise<unknown>,
  ): Promise<any> {
    for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(50)) {
      await meanwhile?.();
      const { result, error } = await this.request('tasks/get', { taskId });
      assert.equal(error, undefined, JSON.stringify(error));
      if (until(result)) return result;
    }
    assert.fail(`task ${taskId} did not get there in ${timeoutMs / 1000} s`);
  }
}
