/** What a resource method whose variables have no DTO may read: the names of its URI template. */
export interface TemplateVariablesOnly {
  /** `Class.method`, for the error. */
  source: string;
  uriTemplate: string;
  names: readonly string[];
}

/** Names any code may probe on an object without meaning a variable (serializers, promise checks, inspection). */
const PROBED = new Set(['toJSON', 'then', 'inspect', 'constructor']);

/**
 * The variables as the method receives them: reading one its template does not have throws
 * rather than answer undefined (and another row than the one asked for). Only the method gets
 * this view; guards and interceptors read the plain variables (`invocation.input`), since they
 * may probe any argument generically (a workspace guard looking for `workspace_id`).
 */
export function templateVariablesView(variables: Record<string, unknown>, only: TemplateVariablesOnly): Record<string, unknown> {
  return new Proxy(variables, {
    get(target, property, receiver) {
      if (typeof property === 'string' && !only.names.includes(property) && !PROBED.has(property) && !(property in Object.prototype)) {
        throw new Error(
          `${only.source} read \`${property}\` from the variables of ${only.uriTemplate}, which has only ` +
            `${only.names.map((name) => `{${name}}`).join(', ')}. Read one of those, or type the variables with a class-validator DTO ` +
            '(or give @McpResource an `input`) so the boot checks them against the template',
        );
      }
      return Reflect.get(target, property, receiver);
    },
  });
}
