import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_OPTIONS } from '../options/mcp-options.constants.js';
import type { ResolvedMcpOptions } from '../options/mcp-options.interface.js';
import { parseClientInfo } from '../protocol/client-info.js';
import { isPlainObject } from '../protocol/json-rpc-message.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpProtocolError } from '../protocol/mcp-protocol.error.js';
import { negotiateProtocol } from '../protocol/protocol-negotiation.js';
import { responseVersion } from '../protocol/protocol-version.js';
import { McpDispatcher } from './mcp.dispatcher.js';
import { jsonRpcErrorOf } from './mcp-exception.filter.js';
import type { McpRequestOutcome } from './mcp-tracing.js';
import { setResponseVersion } from './response-version.js';
import { setMcpResponseHeaders } from '../protocol/json-rpc-response.js';
import { servedMessage, type McpRequestMessage } from '../transport/mcp-request-message.js';
import { CallCancellations } from '../streams/call-cancellations.js';
import { CallStream } from '../streams/call-stream.js';
import { ClientRequests, type ClientRequestOrigin } from '../streams/client-requests.js';
import { MCP_CALL_HOOK, type McpCall, type McpCallHook } from '../contracts/call-hook.js';
import { McpSessions } from '../streams/mcp-sessions.js';
import { acceptsEventStream, ResponseChannel } from '../streams/response-channel.js';
import { StandaloneStreams } from '../streams/standalone-streams.js';
import { McpStreamBackends } from '../streams/stream-backends.provider.js';
import type { McpSession } from '../invocation/mcp-session.js';
import { StreamLimits } from '../streams/stream-limits.js';
import { requestContextOf } from '../invocation/request-context.builder.js';

/**
 * The endpoint in stream mode (`streams` option): POST answers that may become SSE streams,
 * handshake-era sessions, clients' answers to server→client requests, `GET` streams and
 * `DELETE`. The stateless default never comes here.
 */
@Injectable()
export class StreamingEndpoint {
  private readonly logger = new Logger('McpEndpoint');

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly dispatcher: McpDispatcher,
    private readonly sessions: McpSessions,
    private readonly clientRequests: ClientRequests,
    private readonly standalone: StandaloneStreams,
    private readonly limits: StreamLimits,
    private readonly backends: McpStreamBackends,
    private readonly cancellations: CallCancellations,
    @Inject(MCP_CALL_HOOK) private readonly hook: McpCallHook,
  ) {}

  async post(req: Request, res: Response, read: McpRequestMessage): Promise<McpRequestOutcome> {
    const callerKey = this.options.callerKey(req) ?? '';
    if (read.answer) {
      // A client's answer to a server→client request: to the handler waiting for it, on whichever replica.
      const session = await this.sessions.require(req, callerKey);
      const delivery = await this.clientRequests.deliver(read.answer, session.id);
      // A duplicate (the same answer again, already taken) is acknowledged as the first copy was.
      if (!delivery.taken) await this.unclaimedAnswer(req, session, delivery.origin, delivery.firstReport);
      setMcpResponseHeaders(res, session.protocolVersion);
      res.status(HttpStatus.ACCEPTED).end();
      return undefined;
    }
    const message = servedMessage(read);
    const protocol = negotiateProtocol(message, req.headers, this.options, read.tool?.headerParameters);
    setResponseVersion(req, protocol.version);
    const session =
      protocol.era === 'handshake' && message.method !== 'initialize' ? await this.sessions.require(req, callerKey) : undefined;
    if (message.id === undefined) {
      if (session && message.method === 'notifications/cancelled') await this.cancellations.cancel(session.id, message.params);
      setMcpResponseHeaders(res, protocol.version);
      res.status(HttpStatus.ACCEPTED).end();
      return undefined;
    }
    const context = requestContextOf(message, protocol, req, session);
    const channel = new ResponseChannel(req, res, () => context.protocolVersion, session?.id, message.id, {
      events: this.backends.events,
      acquireStream: () => this.limits.acquire(callerKey),
    });
    context.signal = channel.signal;
    const target = message.params.name ?? message.params.uri;
    context.stream = new CallStream(channel, protocol.era, context.meta, session, this.clientRequests, {
      method: message.method,
      ...(typeof target === 'string' ? { target } : {}),
      ...(isPlainObject(message.params.arguments) ? { arguments: message.params.arguments } : {}),
    });
    const untrack = session ? this.cancellations.track(session.id, message.id, (reason) => channel.cancel(reason)) : undefined;
    try {
      const result = await this.dispatcher.dispatch(message, context, read.tool);
      if (message.method === 'initialize') {
        const created = await this.sessions.create({
          callerKey,
          protocolVersion: context.protocolVersion,
          clientCapabilities: isPlainObject(message.params.capabilities) ? message.params.capabilities : {},
          ...optionalClientInfo(message.params.clientInfo),
        });
        res.setHeader('Mcp-Session-Id', created.id);
      }
      setResponseVersion(req, context.protocolVersion);
      if (!channel.streaming) setMcpResponseHeaders(res, context.protocolVersion);
      await channel.respond({ jsonrpc: '2.0', id: message.id, result });
      return result;
    } catch (exception) {
      // Before the stream opened, the exception filter answers with the right HTTP status.
      if (!channel.streaming) throw exception;
      await channel.respond(jsonRpcErrorOf(exception, message.id, this.logger).body);
      return undefined;
    } finally {
      untrack?.();
    }
  }

  /**
   * An answer nobody took: the call that asked was lost with its replica. The call is audited as
   * failed here, through the application's hook, as the replica that ran it could not: with its
   * arguments (recorded when it asked) and the error the client gets, told to call again. Only the
   * first report of a lost call audits it: the same answer sent again gets the same error, and no
   * second row.
   */
  private async unclaimedAnswer(req: Request, session: McpSession, origin: ClientRequestOrigin, firstReport: boolean): Promise<never> {
    const target = origin.target ?? origin.method;
    const lost = McpProtocolError.invalidRequest(
      `No call is waiting for this answer any more: the server running ${target} stopped, or that call already ended. ` +
        `The answer was not used and nothing was done with it; call ${target} again.`,
    );
    if (!firstReport) throw lost;
    const protocol = { era: 'handshake' as const, version: session.protocolVersion, clientCapabilities: {} };
    const context = requestContextOf({ method: origin.method, params: {} }, protocol, req, session);
    const call = {
      context,
      method: origin.method as McpCall['method'],
      target: origin.target,
      arguments: origin.arguments,
      readOnly: false,
      startedAt: performance.now(),
    };
    await this.hook.around(call, () => Promise.reject(lost)).catch(() => undefined);
    throw lost;
  }

  /** `GET`: the session's standalone stream (Streamable HTTP, "Listening for Messages from the Server"). */
  async get(req: Request, res: Response): Promise<void> {
    const callerKey = this.options.callerKey(req) ?? '';
    const session = await this.sessions.require(req, callerKey);
    if (!acceptsEventStream(req.headers.accept)) {
      throw new McpProtocolError(
        McpErrorCode.InvalidRequest,
        'Not acceptable: a GET stream needs Accept: text/event-stream',
        HttpStatus.NOT_ACCEPTABLE,
      );
    }
    const release = this.limits.acquire(callerKey);
    if (!release) {
      throw new McpProtocolError(
        McpErrorCode.InvalidRequest,
        'Too many open streams: close one (or wait for one to end) before opening another',
        HttpStatus.TOO_MANY_REQUESTS,
        undefined,
        { 'Retry-After': '30' },
      );
    }
    setResponseVersion(req, session.protocolVersion);
    try {
      await this.standalone.serve(req, res, session, callerKey, release);
    } catch (error) {
      // The replay failed (event store down): the slot is not held by a stream.
      release();
      throw error;
    }
  }

  /** `DELETE`: ends the session; its id is `404` from then on, on every replica. */
  async delete(req: Request, res: Response): Promise<void> {
    const session: McpSession = await this.sessions.require(req, this.options.callerKey(req) ?? '');
    await this.sessions.end(session);
    this.standalone.closeSession(session.id);
    setMcpResponseHeaders(res, responseVersion(req.headers, this.options));
    res.status(HttpStatus.NO_CONTENT).end();
  }
}

function optionalClientInfo(value: unknown) {
  const clientInfo = parseClientInfo(value, 'params.clientInfo');
  return clientInfo ? { clientInfo } : {};
}
