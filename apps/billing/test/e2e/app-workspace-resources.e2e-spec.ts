import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { McpResource } from '@nest-mcp/core';
import { callStateless } from '@nest-mcp/core/testing';
import { SCOPES } from '../../src/app.scopes.js';
import { currentWorkspaceId } from '../../src/identity/current-workspace.js';
import { WorkspaceScoped } from '../../src/identity/workspace-scoped.decorator.js';
import { startBillingApp, type BillingTestApp } from '../support/billing-app.js';
import { captureOutput } from '../support/log-capture.js';

/**
 * A resource template read in a @WorkspaceScoped() service whose method types its variables with
 * no DTO (`variables: { id: string }`): the workspace guard looks for `workspace_id` among the
 * read's input, which must not trip the check that keeps the method to its template's variables.
 */
@Injectable()
@WorkspaceScoped()
class DepotResources {
  @McpResource({ uri: 'billing://depots/{id}', name: 'depot', description: 'One depot of the workspace.', scopes: [SCOPES.billingRead] })
  depot(variables: { id: string }) {
    return { id: variables.id, workspace: currentWorkspaceId() };
  }

  @McpResource({ uri: 'billing://depot-codes/{code}', name: 'depot_code', description: 'A depot by code.', scopes: [SCOPES.billingRead] })
  depotByCode(variables: { code: string }) {
    // A mistake the check is there for: `id` is not a variable of this template.
    return { id: (variables as unknown as { id: string }).id };
  }
}

@Module({ providers: [DepotResources] })
class DepotResourcesModule {}

describe('a resource with template variables in a @WorkspaceScoped() service', () => {
  let t: BillingTestApp;
  let token: string;
  before(async () => {
    t = await startBillingApp(DepotResourcesModule);
    token = await t.token();
  });
  after(() => t.close());

  it("reads the variable and runs in the caller's workspace (the guard's probe of workspace_id is not a read of a variable)", async () => {
    const { status, body } = await callStateless(t.mcpUrl, 'resources/read', { uri: 'billing://depots/d-7' }, { token });
    assert.equal(status, 200);
    assert.equal(body.error, undefined, JSON.stringify(body.error));
    const [content] = body.result.contents;
    const read = JSON.parse(content.text);
    assert.equal(read.id, 'd-7');
    assert.match(read.workspace, /\S/);
  });

  it('still stops the method reading a variable its template does not have: an internal error, the log names the method and the template', async () => {
    const logs = captureOutput();
    try {
      const { body } = await callStateless(t.mcpUrl, 'resources/read', { uri: 'billing://depot-codes/north' }, { token });
      assert.equal(body.result, undefined);
      assert.equal(body.error.code, -32603);
      assert.match(
        logs.text(),
        /DepotResources\.depotByCode read `id` from the variables of billing:\/\/depot-codes\/\{code\}, which has only \{code\}/,
      );
    } finally {
      logs.restore();
    }
  });
});
