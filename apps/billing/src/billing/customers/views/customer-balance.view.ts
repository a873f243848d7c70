import { readFile } from 'node:fs/promises';
import type { McpViewOptions } from '@nest-mcp/core';

/**
 * The app view of billing_customer_summary: the customer's balances per currency and recent
 * invoices with what is still owed on each, drawn from the tool's result. The HTML sits beside
 * this file (copied into dist by nest-cli.json's assets) and is read once, at boot.
 */
export const CUSTOMER_BALANCE_VIEW: McpViewOptions = {
  uri: 'ui://billing/customer-balance',
  title: 'Customer balance',
  description: "A customer's open and overdue balances and their recent invoices.",
  prefersBorder: true,
  html: () => readFile(new URL('./customer-balance.html', import.meta.url), 'utf8'),
};
