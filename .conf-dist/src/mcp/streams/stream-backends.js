export const MCP_SESSION_STORE = Symbol('MCP_SESSION_STORE');
export const MCP_EVENT_STORE = Symbol('MCP_EVENT_STORE');
export const MCP_MESSAGE_BUS = Symbol('MCP_MESSAGE_BUS');
/**
 * Bus channel on which any replica announces that a resource changed (payload
 * `{ uri: string }`): the layer turns it into `notifications/resources/updated` for the sessions
 * subscribed to that URI. The application publishes it when a row behind a resource is written,
 * whatever the channel of the write (REST, MCP, admin pages).
 */
export const MCP_RESOURCE_UPDATED_CHANNEL = 'mcp:resource-updated';
//# sourceMappingURL=stream-backends.js.map