import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearer, startBillingApp } from '../support/billing-app.js';
import { post, statelessRequest } from '../support/mcp-http.js';
import { matchSnapshot } from '../support/snapshot.js';
describe('the application', () => {
    let t;
    before(async () => {
        t = await startBillingApp();
    });
    after(() => t.close());
    it('publishes every tool with the schema generated from its DTOs (snapshot)', async () => {
        const request = statelessRequest('tools/list');
        const { body } = await post(t.mcpUrl, request.body, { ...request.headers, ...bearer(await t.token()) });
        matchSnapshot('test/e2e', 'app-tools', body.result.tools);
    });
    it('serves Swagger from the same DTOs', async () => {
        const response = await fetch(`${t.baseUrl}/docs-json`);
        assert.equal(response.status, 200);
        const document = (await response.json());
        assert.ok(document.paths['/v1/status']);
        assert.ok(document.paths['/v1/customers']);
    });
});
//# sourceMappingURL=app-tools.e2e-spec.js.map