import type { INestApplication, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Request } from 'express';
import { HttpExceptionWithHeadersFilter } from './common/http-exception-with-headers.filter.js';
import { CORE_CONFIG, type CoreConfig } from './config/environment.js';
import { useHostCheck } from './identity/host-check.js';
import { IDENTITY_SETTINGS, type IdentitySettings } from './identity/identity.config.js';
import { McpAuthenticator } from '@nest-mcp/auth';
import { type AuthenticateBeforeRead, McpRestResultInterceptor, mcpRestValidationPipe, useMcpTransport } from '@nest-mcp/core';
import { createRestBodyReader, MCP_OPTIONS, type ResolvedMcpOptions, type RestBodyRules } from '@nest-mcp/core/extensions';
import { setupSwagger } from './swagger.js';

/** Request body limit of the MCP endpoint and of the upload route (docs/contract.md §1.2: 14 MiB, a base64 attachment of 10 MiB). */
export const BODY_LIMIT_BYTES = 14 * 1024 * 1024;
/** Request body limit of every other REST route: their DTOs are a few KiB. */
export const REST_BODY_LIMIT_BYTES = 1024 * 1024;
/** The one REST route that takes a file (POST /v1/attachments), so the only one allowed BODY_LIMIT_BYTES. */
const UPLOAD_PATH = '/v1/attachments';

/**
 * Everything `main.ts` does to an application before it listens, in one place so that the
 * end-to-end tests boot exactly what production runs.
 */
export function configureApp(app: INestApplication): void {
  const core = optional<CoreConfig>(app, CORE_CONFIG);
  // Before anything reads a body: a request for another host name is refused first (DNS rebinding, PUBLIC_URL).
  useHostCheck(app, optional<IdentitySettings>(app, IDENTITY_SETTINGS)?.configuredPublicUrl);
  // Names the framework to every scanner, tells a client nothing it needs.
  (app as NestExpressApplication).disable('x-powered-by');

  // Bodies: one set of rules for /mcp and REST (limit, slow-body 408, depth, prototype keys),
  // and a body above largeBodyBytes is read only once its sender authenticated.
  const authenticateLargeBody = largeBodyAuthentication(app);
  useMcpTransport(app, { authenticateLargeBody });
  const mcp = app.get<ResolvedMcpOptions>(MCP_OPTIONS);
  // Rules read per request: the options object is the one the MCP endpoint reads too.
  const restRules = (limitBytes: number) => (): RestBodyRules => ({
    limitBytes,
    timeoutMs: mcp.bodyTimeoutMs,
    authenticateAboveBytes: mcp.largeBodyBytes,
    authenticate: authenticateLargeBody,
  });
  const uploadRules = restRules(BODY_LIMIT_BYTES);
  const otherRules = restRules(REST_BODY_LIMIT_BYTES);
  // Mounted on the path, Express matches it as it matches the route (case, trailing slash); req.path is what follows it.
  app.use(
    UPLOAD_PATH,
    createRestBodyReader((req: Request) => (req.method === 'POST' && req.path === '/' ? uploadRules() : otherRules())),
  );
  app.use(createRestBodyReader(otherRules));

  // REST bodies are validated by the same DTO classes the MCP layer validates tool arguments with,
  // under the same rules (required fields present, nested objects objects) and in the same words.
  app.useGlobalPipes(mcpRestValidationPipe({ forbidUnknownArguments: mcp.forbidUnknownArguments }));
  // 401/403 challenges and 503 outages: their headers (WWW-Authenticate, Retry-After) on the REST answer.
  app.useGlobalFilters(new HttpExceptionWithHeadersFilter());
  // Tool routes write BigInt, Map and Set over REST as their MCP results do (not a 500, not `{}`).
  app.useGlobalInterceptors(new McpRestResultInterceptor());
  // Without the settings (an MCP test fixture, not this application): the documentation's default outside production.
  setupSwagger(app, core?.server.apiDocs ?? 'public');
}

/**
 * `@nest-mcp/auth`'s authentication, run from the headers before a large body is read; the
 * principal it finds is kept on the request, so `McpAuthGuard` does not check again.
 * Undefined in an application without the identity module (the MCP test fixtures).
 */
function largeBodyAuthentication(app: INestApplication): AuthenticateBeforeRead | undefined {
  const authenticator = optional<McpAuthenticator>(app, McpAuthenticator);
  return authenticator && (async (req) => void (await authenticator.authenticate(req)));
}

/**
 * A provider of the application, or undefined in an application without it (the MCP test
 * fixtures boot without this application's modules).
 */
function optional<T>(app: INestApplication, token: Type<T> | symbol): T | undefined {
  try {
    // Through ModuleRef: app.get() of a missing provider aborts the process (abortOnError).
    return app.get(ModuleRef).get<T>(token, { strict: false });
  } catch {
    return undefined;
  }
}
