import { markHeaderParameter } from '../schema/dto-header-parameters.js';
import { isHeaderToken } from '../schema/header-parameters.js';

/**
 * Mirrors a tool argument into an HTTP header, so a gateway or load balancer can route or
 * authorize on it without reading the body (docs/tools.md, "Header parameters"). On a property
 * of a tool's input DTO: the tool's `inputSchema` marks it with `"x-mcp-header": name`, clients
 * of the 2026-07-28 protocol send its value as `Mcp-Param-<name>`, and the endpoint refuses a
 * call whose header is missing or disagrees with the argument (HTTP 400, `-32020`) before
 * anything runs. The property must be a string, an integer (`@IsInt()`) or a boolean;
 * subclasses of the DTO inherit the mark.
 *
 * @param name the part after `Mcp-Param-`: letters, digits and ``!#$%&'*+-.^_`|~``, unique per tool ignoring case.
 */
export function McpHeader(name: string): PropertyDecorator {
  if (typeof name !== 'string' || !isHeaderToken(name)) {
    throw new Error(
      `@McpHeader(${JSON.stringify(name)}): not a header name. Use letters, digits and !#$%&'*+-.^_\`|~ ` +
        "(no spaces, colons, control or non-ASCII characters), e.g. @McpHeader('Workspace-Id')",
    );
  }
  return (target, property) => {
    if (typeof property !== 'string') throw new Error(`@McpHeader('${name}') decorates a named property, not a symbol`);
    markHeaderParameter(target, property, name);
  };
}
