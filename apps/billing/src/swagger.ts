import { HttpException, type INestApplication } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { HttpExceptionWithHeaders } from './common/http-exception-with-headers.js';
import type { ServerConfig } from './config/environment.js';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { McpAuthenticator } from '@nest-mcp/auth';
import { exceptionHeaders, MCP_TOOL_METADATA, type McpToolMetadata } from '@nest-mcp/core/extensions';

/** Paths that are not the REST API a client integrates with: the MCP endpoint, the admin pages (HTML), the OAuth metadata. */
const HIDDEN_PATH = /^\/(mcp|admin|\.well-known)(\/|$)/;

/** Where Swagger serves the UI and the OpenAPI document (`/docs-json`, `/docs-yaml`). */
const DOCS_PATHS = ['/docs', '/docs-json', '/docs-yaml'];

/**
 * REST API documentation at `/docs`, generated from the same DTOs that describe the MCP tools.
 * `mode` (`API_DOCS`, `CoreConfig.server.apiDocs`) says who may read it: nobody (`off`, the production default: the route map of the
 * API is not published), anyone (`public`, the default elsewhere), or a caller with a token
 * issued for the REST API (`authenticated`).
 */
export function setupSwagger(app: INestApplication, mode: ServerConfig['apiDocs']): void {
  if (mode === 'off') return;
  if (mode === 'authenticated') app.use(DOCS_PATHS, docsAuthentication(app));
  const config = new DocumentBuilder()
    .setTitle('Billing API')
    .setDescription('The REST API whose handlers the MCP tools dispatch to in-process.')
    .setVersion('0.1.0')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      // Not Nest's default 'JWT': personal tokens are opaque; a JWT is only one kind accepted.
      bearerFormat: 'access token',
      description:
        'An access token issued for the REST API: a personal token (`mcp_pat_…`) from `npm run token -- --for api` ' +
        '(the demo token printed by `npm start` is for the MCP endpoint only), or, when AUTH_JWT_ISSUER is set, the ' +
        "external authorization server's access token with this API's audience (AUTH_JWT_API_AUDIENCE, default <PUBLIC_URL>/v1).",
    })
    .build();
  SwaggerModule.setup('docs', app, () => describeTools(app, hideInternalPaths(SwaggerModule.createDocument(app, config))));
}

/** The app's own authentication (a token for the REST API) in front of the documentation. */
function docsAuthentication(app: INestApplication) {
  const authenticator = app.get(ModuleRef).get(McpAuthenticator, { strict: false });
  return (req: Request, res: Response, next: NextFunction) => {
    authenticator.authenticate(req).then(
      () => next(),
      (error: unknown) => {
        if (!(error instanceof HttpException)) return next(error);
        res
          .status(error.getStatus())
          .set({ ...exceptionHeaders(error), 'cache-control': 'no-store' })
          .json(error instanceof HttpExceptionWithHeaders ? error.body() : error.getResponse());
      },
    );
  };
}

function hideInternalPaths(document: OpenAPIObject): OpenAPIObject {
  for (const path of Object.keys(document.paths)) if (HIDDEN_PATH.test(path)) delete document.paths[path];
  return document;
}

/**
 * A route that is also an MCP tool is summarised by the tool's title and described by the tool's
 * description (what the model reads), unless the route sets its own `@ApiOperation`.
 */
function describeTools(app: INestApplication, document: OpenAPIObject): OpenAPIObject {
  const tools = new Map<string, McpToolMetadata>();
  for (const wrapper of app.get(DiscoveryService).getControllers()) {
    const prototype = (wrapper.metatype as { prototype?: object } | undefined)?.prototype;
    if (!prototype) continue;
    for (const method of Object.getOwnPropertyNames(prototype)) {
      const handler = (prototype as Record<string, unknown>)[method];
      if (typeof handler !== 'function') continue;
      const tool = Reflect.getMetadata(MCP_TOOL_METADATA, handler) as McpToolMetadata | undefined;
      // Swagger's default operationId: `<Controller>_<method>`.
      if (tool) tools.set(`${wrapper.name}_${method}`, tool);
    }
  }
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      const tool = operation?.operationId ? tools.get(operation.operationId) : undefined;
      if (!operation || !tool) continue;
      operation.summary ||= tool.title ?? tool.name;
      operation.description ||= tool.description;
    }
  }
  return document;
}
