import type { INestApplication } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { MCP_TOOL_METADATA, type McpToolMetadata } from '@nest-mcp/core';

/** Paths that are not the REST API a client integrates with: the MCP endpoint and the admin pages (HTML). */
const HIDDEN_PATH = /^\/(mcp|admin)(\/|$)/;

/** REST API documentation at `/docs`, generated from the same DTOs that describe the MCP tools. */
export function setupSwagger(app: INestApplication): void {
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
        'An access token: a personal token (`mcp_pat_…`, from `npm run token` or printed by `npm start` in demo mode), ' +
        "or the external authorization server's access token when AUTH_JWT_ISSUER is set.",
    })
    .build();
  SwaggerModule.setup('docs', app, () => describeTools(app, hideInternalPaths(SwaggerModule.createDocument(app, config))));
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
