import { RouteParamtypes } from '@nestjs/common/internal';
/** Param type of the synthetic second argument given to provider methods: the invocation. */
export const MCP_INVOCATION_PARAM = 100;
/**
 * Feeds route-parameter decorators of a handler invoked through MCP: `@Body()`, `@Query()` and
 * `@Param()` read the validated input (whole, or one property by name), `@Req()` and `@Headers()`
 * the HTTP request that carried the message. `@Res()` has no meaning here and gets undefined.
 */
export class McpParamsFactory {
    namedKeys;
    /**
     * @param namedKeys arguments the handler takes through named `@Param(name)` / `@Query(name)`:
     * a whole `@Body()` does not get them again, so a REST body DTO without the path parameter
     * still validates when the tool's input carries it (e.g. `payment_id` of `/payments/:payment_id/refunds`).
     */
    constructor(namedKeys = []) {
        this.namedKeys = namedKeys;
    }
    exchangeKeyForValue(type, data, args) {
        const [request, invocation] = args;
        const input = invocation.input;
        switch (type) {
            case RouteParamtypes.BODY:
                return typeof data === 'string' ? input?.[data] : this.withoutNamedKeys(input);
            case RouteParamtypes.QUERY:
            case RouteParamtypes.PARAM:
                return typeof data === 'string' ? input?.[data] : input;
            case RouteParamtypes.REQUEST:
                return request;
            case RouteParamtypes.HEADERS:
                return typeof data === 'string' ? request.headers[data.toLowerCase()] : request.headers;
            case RouteParamtypes.IP:
                return request.ip;
            case RouteParamtypes.HOST:
                return typeof data === 'string' ? request.hosts?.[data] : undefined;
            case MCP_INVOCATION_PARAM:
                return invocation;
            default:
                return undefined;
        }
    }
    withoutNamedKeys(input) {
        if (!input || !this.namedKeys.length)
            return input;
        return Object.fromEntries(Object.entries(input).filter(([key]) => !this.namedKeys.includes(key)));
    }
}
//# sourceMappingURL=mcp-params.factory.js.map