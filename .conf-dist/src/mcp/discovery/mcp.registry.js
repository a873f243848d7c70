var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Injectable } from '@nestjs/common';
/**
 * Everything the endpoint serves, built once at bootstrap by `McpExplorer`. The request path only
 * looks things up here; lists are kept sorted by name so pages are deterministic.
 */
let McpRegistry = class McpRegistry {
    toolsByName = new Map();
    resourcesByUri = new Map();
    resourceNames = new Map();
    templatesByName = new Map();
    promptsByName = new Map();
    completionsByKey = new Map();
    tools = [];
    resources = [];
    templates = [];
    prompts = [];
    addTool(entry) {
        this.claim(this.toolsByName, entry.name, entry, 'tool');
        this.tools = sortByName(this.toolsByName);
    }
    addResource(entry) {
        this.claim(this.resourceNames, entry.name, entry, 'resource');
        this.claim(this.resourcesByUri, entry.definition.uri, entry, 'resource URI');
        this.resources = sortByName(this.resourcesByUri);
    }
    addTemplate(entry) {
        this.claim(this.resourceNames, entry.name, entry, 'resource');
        this.claim(this.templatesByName, entry.name, entry, 'resource template');
        this.templates = sortByName(this.templatesByName);
    }
    addPrompt(entry) {
        this.claim(this.promptsByName, entry.name, entry, 'prompt');
        this.prompts = sortByName(this.promptsByName);
    }
    addCompletion(key, entry) {
        this.claim(this.completionsByKey, key, entry, 'completion');
    }
    tool(name) {
        return this.toolsByName.get(name);
    }
    prompt(name) {
        return this.promptsByName.get(name);
    }
    resource(uri) {
        return this.resourcesByUri.get(uri);
    }
    templateByUri(uriTemplate) {
        return this.templates.find((t) => t.definition.uriTemplate === uriTemplate);
    }
    /** The first template (in name order) that matches a concrete URI, with its variables. */
    matchTemplate(uri) {
        for (const entry of this.templates) {
            const match = entry.template.match(uri);
            if (match) {
                // Template expansion percent-encodes values; the handler gets them decoded.
                const variables = Object.fromEntries(Object.entries(match).map(([key, value]) => [key, decode(Array.isArray(value) ? value.join(',') : value)]));
                return { entry, variables };
            }
        }
        return undefined;
    }
    completion(key) {
        return this.completionsByKey.get(key);
    }
    claim(map, key, entry, kind) {
        const existing = map.get(key);
        if (existing) {
            throw new Error(`Duplicate MCP ${kind} "${key}": declared by ${existing.source} and by ${entry.source}`);
        }
        map.set(key, entry);
    }
};
McpRegistry = __decorate([
    Injectable()
], McpRegistry);
export { McpRegistry };
function decode(value) {
    try {
        return decodeURIComponent(value);
    }
    catch {
        return value;
    }
}
function sortByName(map) {
    return [...map.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
export function completionKey(ref, argument) {
    return `${ref.type}:${ref.name}#${argument}`;
}
//# sourceMappingURL=mcp.registry.js.map