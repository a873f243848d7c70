import { HttpStatus, RequestMethod, type Type } from '@nestjs/common';
import {
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  MODULE_PATH,
  PATH_METADATA,
  RESPONSE_PASSTHROUGH_METADATA,
  ROUTE_ARGS_METADATA,
  RouteParamtypes,
} from '@nestjs/common/internal';
import type { RestBackgroundRoute } from '../rest/rest-background.js';
import { validatedProperties } from '../schema/dto-composition.js';
import { restArguments, type RestArguments } from './rest-arguments.js';
import { firstPath, PATH_PARAMETER } from './route-path.check.js';

/** Where a tool was found: `target.methodName` (`source`, `Class.method`), in `module`. */
interface ToolSite {
  source: string;
  target: Type<unknown>;
  methodName: string;
  module?: Function;
}

/** A tool's method that is also a controller route. */
interface RouteTool {
  source: string;
  handler: Function;
  verb: RequestMethod;
  /** Its path as Nest mounts it: the module's (`RouterModule`), the controller's, the method's (the first of each). */
  path: string;
}

/** A background tool's route, waiting for the job tool's route to name its `Location`. */
interface BackgroundRoute extends RouteTool {
  tool: string;
  arguments: RestArguments;
}

/**
 * The REST side of `task: 'background'` tools that are routes (`McpRestBackground`), gathered while
 * `McpExplorer` walks the methods and resolved once every tool is known. What would keep the layer
 * from answering such a route's REST requests fails the boot, naming the method and the fix: a
 * status other than 202, a response the handler writes itself, an input no REST request can carry,
 * a job tool whose route cannot be the `Location` of a job.
 */
export class BackgroundRoutes {
  private readonly routes = new Map<string, RouteTool>();
  private readonly background: BackgroundRoute[] = [];

  /** `applicationId`: the application's (`ModulesContainer`), which keys its `RouterModule` paths. */
  constructor(private readonly applicationId: string) {}

  /** A tool found on `target.methodName` (`source`), hosted by `module`; `input` is its DTO. */
  add(tool: { name: string; task?: string }, at: ToolSite, input?: Type<object>): void {
    const route = this.routeOf(at);
    if (!route) return;
    this.routes.set(tool.name, route);
    if (tool.task !== 'background') return;
    assertAnsweredByTheLayer(at.target, at.methodName, at.source);
    const args = restArguments(at.target, at.methodName);
    assertInputReachable(at.source, input, args);
    this.background.push({ ...route, tool: tool.name, arguments: args });
  }

  /** Each background route's handler and REST side, once every tool is known; none without a registered job tool (`McpExtensionPointsReport` says why). */
  resolve(jobTool: { name: string; source: string } | undefined): Array<[Function, RestBackgroundRoute]> {
    if (!jobTool || !this.background.length) return [];
    const jobRoute = this.routes.get(jobTool.name);
    return this.background.map((route) => [
      route.handler,
      { tool: route.tool, argumentsOf: route.arguments.read, jobLocation: jobLocation(route.source, jobTool, jobRoute) },
    ]);
  }

  private routeOf({ source, target, methodName, module }: ToolSite): RouteTool | undefined {
    const handler = (target.prototype as Record<string, Function>)[methodName];
    const methodPath: unknown = Reflect.getMetadata(PATH_METADATA, handler);
    if (methodPath === undefined) return undefined;
    const modulePath: unknown = module
      ? (Reflect.getMetadata(MODULE_PATH + this.applicationId, module) ?? Reflect.getMetadata(MODULE_PATH, module))
      : undefined;
    const parts = [modulePath, Reflect.getMetadata(PATH_METADATA, target), methodPath].map(firstPath).filter(Boolean);
    const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
    return { source, handler, verb, path: `/${parts.join('/')}` };
  }
}

/**
 * The layer answers a background route's REST request itself (202, the job): a route that declares
 * another status, or whose handler writes the response (`@Res()`, `@Next()`), would make Nest send
 * something else, or nothing at all.
 */
function assertAnsweredByTheLayer(target: Type<unknown>, methodName: string, source: string): void {
  const handler = (target.prototype as Record<string, Function>)[methodName];
  const code: unknown = Reflect.getMetadata(HTTP_CODE_METADATA, handler);
  if (code !== HttpStatus.ACCEPTED) {
    throw new Error(
      `${source}: @HttpCode(${String(code)}) on a task: 'background' route. Over REST the layer queues the work and answers ` +
        `202 Accepted with the job and its Location, whatever the handler would return. Remove @HttpCode(${String(code)})`,
    );
  }
  const args: Record<string, unknown> = Reflect.getMetadata(ROUTE_ARGS_METADATA, target, methodName) ?? {};
  const writer = Object.keys(args)
    .map((key) => Number(key.split(':')[0]))
    .find((type) => type === RouteParamtypes.RESPONSE || type === RouteParamtypes.NEXT);
  if (writer !== undefined && !Reflect.getMetadata(RESPONSE_PASSTHROUGH_METADATA, target, methodName)) {
    const decorator = writer === RouteParamtypes.RESPONSE ? '@Res()' : '@Next()';
    throw new Error(
      `${source}: ${decorator} on a task: 'background' route hands the response to the handler, but over REST the layer ` +
        'answers 202 Accepted with the job without calling it (it runs later, as the task). Use @Res({ passthrough: true }) ' +
        `to set headers, or drop ${decorator}`,
    );
  }
}

/** Over REST a background tool's arguments are what its route reads; an input the route does not read would be queued empty. */
function assertInputReachable(source: string, input: Type<object> | undefined, args: RestArguments): void {
  const properties = input ? validatedProperties(input) : [];
  if (!properties.length || args.readers) return;
  throw new Error(
    `${source}: its input ${input!.name} (${properties.map((p) => `\`${p}\``).join(', ')}) reaches it over MCP only: the route ` +
      "reads no @Body(), @Query() or @Param(), so a REST request to this task: 'background' route could not carry the " +
      `arguments its task needs. Read them with @Body() ${input!.name} (or @Query() / @Param())`,
  );
}

/** The job's REST path (the job tool's route with the id): a GET route with one path parameter, else the boot fails. */
function jobLocation(source: string, jobTool: { name: string; source: string }, route: RouteTool | undefined): (jobId: string) => string {
  const fix = `Make ${jobTool.name} a GET route that reads the job id from its path (e.g. @Get('jobs/:job_id') with @Param('job_id'))`;
  const why =
    `${source}: a REST request to this task: 'background' route is answered 202 Accepted with the job's Location, ` +
    `the job tool's route, but the job tool ${jobTool.name} (${jobTool.source})`;
  if (!route) throw new Error(`${why} is no route. ${fix}`);
  const parameters = [...route.path.matchAll(PATH_PARAMETER)];
  const shown = `${RequestMethod[route.verb]} ${route.path}`;
  if (route.verb !== RequestMethod.GET) throw new Error(`${why} is ${shown}, not a GET. ${fix}`);
  if (parameters.length !== 1) {
    throw new Error(`${why} is ${shown}, which has ${parameters.length ? 'more than one path parameter' : 'no path parameter'}. ${fix}`);
  }
  const [parameter] = parameters;
  const [before, after] = [route.path.slice(0, parameter.index), route.path.slice(parameter.index + parameter[0].length)];
  return (jobId) => `${before}${encodeURIComponent(jobId)}${after}`;
}
