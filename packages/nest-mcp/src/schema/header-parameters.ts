/** The schema keyword that marks a tool argument a client mirrors into an `Mcp-Param-<Name>` header. */
export const X_MCP_HEADER = 'x-mcp-header';

/** RFC 9110 field-name token (`1*tchar`): ASCII letters, digits and ``!#$%&'*+-.^_`|~``; no space, colon or control character. */
const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The argument types a header can carry: a `number` (a float) has no single text form, so it is not one of them. */
const HEADER_TYPES = ['string', 'integer', 'boolean'] as const;

/** Keywords whose values are data, not subschemas: an `x-mcp-header` key inside an example is not an annotation. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);

/** One tool argument mirrored into a header (docs/tools.md, "Header parameters"). */
export interface McpHeaderParameter {
  /** The name as the tool declares it: the header is `Mcp-Param-<name>` (matched case-insensitively). */
  name: string;
  /** Where the argument sits in `arguments`: a chain of property names from the root. */
  path: readonly string[];
  type: (typeof HEADER_TYPES)[number];
}

/** Whether `name` may follow `Mcp-Param-` in a header name. */
export function isHeaderToken(name: string): boolean {
  return HEADER_TOKEN.test(name);
}

/**
 * The header parameters a tool's published `inputSchema` declares, whatever built the schema (a
 * DTO with `@McpHeader()`, a raw JSON Schema). Throws with the offending property on a
 * declaration clients would refuse (they drop the whole tool from `tools/list`): a name that is
 * empty, not an HTTP token, or used twice ignoring case; a property that is not a string, integer
 * or boolean; a declaration not reachable from the root through `properties` alone (under
 * `items`, `anyOf`, `$defs`, …), since a client could not tell which value to send.
 */
export function headerParametersOf(inputSchema: unknown): McpHeaderParameter[] {
  const found: McpHeaderParameter[] = [];
  const byLowerName = new Map<string, string>();
  const visit = (node: unknown, path: string[], reachable: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => visit(item, [...path, String(index)], false));
    if (node === null || typeof node !== 'object') return;
    const schema = node as Record<string, unknown>;
    if (Object.hasOwn(schema, X_MCP_HEADER)) {
      found.push(declaration(schema, path, reachable, byLowerName));
    }
    for (const [keyword, value] of Object.entries(schema)) {
      if (keyword === X_MCP_HEADER || DATA_KEYWORDS.has(keyword)) continue;
      if (keyword === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        for (const [property, child] of Object.entries(value)) visit(child, [...path, 'properties', property], reachable);
      } else {
        visit(value, [...path, keyword], false);
      }
    }
  };
  visit(inputSchema, [], true);
  return found;
}

function declaration(
  schema: Record<string, unknown>,
  path: string[],
  reachable: boolean,
  byLowerName: Map<string, string>,
): McpHeaderParameter {
  const where = path.length ? `inputSchema.${path.join('.')}` : 'inputSchema';
  const name = schema[X_MCP_HEADER];
  if (!reachable || path.length === 0) {
    throw new Error(
      `${where}: ${X_MCP_HEADER} is allowed only on a property reached from the root through "properties" alone ` +
        '(not under items, additionalProperties, anyOf/oneOf/allOf/not, if/then/else or $defs), so a client knows which value to send',
    );
  }
  if (typeof name !== 'string' || !isHeaderToken(name)) {
    throw new Error(
      `${where}: ${X_MCP_HEADER} ${JSON.stringify(name)} is not a header name: use letters, digits and !#$%&'*+-.^_\`|~ ` +
        '(no spaces, colons, control or non-ASCII characters), e.g. "Workspace-Id"',
    );
  }
  const type = schema.type;
  if (!HEADER_TYPES.includes(type as McpHeaderParameter['type'])) {
    throw new Error(
      `${where}: ${X_MCP_HEADER} "${name}" is on a property of type ${JSON.stringify(type ?? null)}; only string, integer ` +
        'and boolean properties can be mirrored into a header' +
        (type === 'number' ? ' (a number has no single text form: validate it with @IsInt() if it is a whole number)' : ''),
    );
  }
  const earlier = byLowerName.get(name.toLowerCase());
  if (earlier !== undefined) {
    throw new Error(`${where}: ${X_MCP_HEADER} "${name}" is already declared as "${earlier}" (header names ignore case)`);
  }
  byLowerName.set(name.toLowerCase(), name);
  return { name, path: path.filter((_, index) => index % 2 === 1), type: type as McpHeaderParameter['type'] };
}
