import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';

/** Keeps the secret of one approval apart from any other HMAC made with the same key. */
const PURPOSE = 'nest-mcp approval view\n';

/**
 * The per-approval secret of the confirmation view (docs/confirmation-and-idempotency.md, "In the
 * chat, as an app view"): handed to the view in the pending result's `_meta`, which hosts give the
 * view and not the model, and required by the tool the view decides with. A keyed hash of the
 * approval's id, so nothing is stored and any replica can check it: the key is the McpModule option
 * `requestState.secret` (shared by replicas), or a random per-process key without one (one replica
 * only, as for `requestState`).
 */
@Injectable()
export class McpApprovalViewSecrets {
  private readonly key: Buffer;

  constructor(@Inject(MCP_OPTIONS) options: ResolvedMcpOptions) {
    const secret = options.requestState.secret;
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
  }

  /** The secret of the approval `approvalId`. */
  secretFor(approvalId: string): string {
    return createHmac('sha256', this.key)
      .update(PURPOSE + approvalId.toLowerCase())
      .digest('base64url');
  }

  /** Whether `secret` is the secret of `approvalId` (compared in constant time). */
  verify(approvalId: string, secret: unknown): boolean {
    if (typeof secret !== 'string' || !secret) return false;
    const expected = Buffer.from(this.secretFor(approvalId));
    const given = Buffer.from(secret);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
