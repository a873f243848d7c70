/** REST calls of the billing application, for tests that prepare data or compare REST with MCP. */
import assert from 'node:assert/strict';

/** A REST call (a bearer token unless `token` is undefined, a JSON body): the status, the headers and the parsed JSON answer. */
export async function restCall(
  t: { baseUrl: string },
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A sent, unpaid invoice of `customerId` (one line, 1,000.00 MXN), created over REST; its id. */
export async function sentInvoice(app: { baseUrl: string }, token: string, customerId: string): Promise<string> {
  const { status, body } = await restCall(app, token, 'POST', '/v1/invoices', {
    customer_id: customerId,
    currency: 'MXN',
    issue_date: day(-2),
    due_date: day(28),
    lines: [{ description: 'Consulting', quantity: 1, unit_price_minor: 100_000 }],
  });
  assert.equal(status, 201, JSON.stringify(body));
  return (body as { id: string }).id;
}
