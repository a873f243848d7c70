import {
  BadRequestException,
  ConflictException,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { PrismaService } from '../database/prisma.service.js';
import { answerWithKey, argumentsHash } from '@nest-mcp/core/extensions';
import { isIdempotencyKey } from './idempotency-key.format.js';
import { PrismaIdempotencyStore, type IdempotentRequest } from '@nest-mcp/prisma';
import { idempotencyScope } from './idempotency-scope.js';

const BODY_KEY = 'idempotency_key';
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on a response that is the stored answer of an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Idempotency keys of REST writes (`@IdempotentRoute()`), with the store, claim and sequence
 * (`answerWithKey`) MCP tool calls use: one table, one rule. An interceptor, so it runs after
 * every guard: only a caller allowed to make the request can replay it or learn that its key
 * exists, and the workspace is resolved.
 *
 * A keyed request runs in one transaction with its claim (services write through `prisma.db`,
 * which joins it): a success commits the write with its stored answer; a failure (any 4xx/5xx,
 * validation included) rolls both back, leaving the key free. A concurrent repeat blocks on the
 * claim until the first commits, then replays. Requests without a key pass straight through: no
 * transaction, no query.
 *
 * Keys are scoped by workspace, caller and operation (`POST /v1/payments/:payment_id/refunds`), apart from
 * the MCP tool of the same handler: the two channels store different answers (a response body vs
 * a tool result envelope), so neither could replay the other's faithfully.
 */
@Injectable()
export class RestIdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly prisma: PrismaService,
    private readonly store: PrismaIdempotencyStore,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    // Attached by @IdempotentRoute() to its routes only; an MCP tool call of the same handler has its own claim.
    if (context.getType() !== 'http') return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const key = keyOf(request);
    if (!key) return next.handle();
    const call: IdempotentRequest = {
      tool: `${request.method} ${(request.route as { path?: string } | undefined)?.path ?? request.path}`,
      key,
      // The key itself is left out: a retry may move it between the body and the header.
      argumentsHash: argumentsHash({ params: request.params, body: withoutKey(request.body) }),
      scope: idempotencyScope(request, request.body),
    };
    return from(
      this.prisma.transaction(() =>
        answerWithKey(this.store, call, {
          replay: (result) => {
            http.getResponse<Response>().setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
            return result;
          },
          mismatch: () => {
            throw new ConflictException({
              statusCode: 409,
              code: 'idempotency_key_reused',
              message:
                `This idempotency key was already used for ${call.tool} with a different request. ` +
                'Use a new key for a new operation, or repeat the first request exactly to get its answer.',
            });
          },
          run: () => lastValueFrom(next.handle(), { defaultValue: undefined }),
          // Kept as JSON text, as the client receives it (a replay answers with the route's own status).
          kept: (body) => body ?? null,
        }),
      ),
    );
  }
}

/**
 * The request's key: the body field or the header (a header-only key is copied into the body, so
 * the route's DTO and handler see it). Both present and different is refused. A malformed body key
 * is left to the route's validation (nothing is claimed for it).
 */
function keyOf(request: Request): string | undefined {
  const header = request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  const body = isObject(request.body) ? request.body[BODY_KEY] : undefined;
  if (header === undefined) return isIdempotencyKey(body) ? body : undefined;
  if (!isIdempotencyKey(header)) {
    throw new BadRequestException({
      statusCode: 400,
      code: 'invalid_argument',
      field: IDEMPOTENCY_KEY_HEADER,
      message: `The ${IDEMPOTENCY_KEY_HEADER} header must be one key of 8–128 printable ASCII characters without spaces (a UUID works).`,
    });
  }
  if (body !== undefined && body !== header) {
    throw new BadRequestException({
      statusCode: 400,
      code: 'idempotency_key_conflict',
      field: BODY_KEY,
      message: `The ${IDEMPOTENCY_KEY_HEADER} header and the ${BODY_KEY} body field differ. Send the key once (either place) or the same key in both.`,
    });
  }
  if (isObject(request.body)) request.body[BODY_KEY] = header;
  return header;
}

function withoutKey(body: unknown): unknown {
  if (!isObject(body)) return body;
  const { [BODY_KEY]: _key, ...rest } = body;
  return rest;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
