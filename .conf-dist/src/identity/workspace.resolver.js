var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { BadRequestException, ForbiddenException, Injectable } from '@nestjs/common';
/**
 * Which workspace a request acts in (SPEC §3): the token's own workspace, else a `workspace_id`
 * argument, else `X-Workspace-Id`, else `?workspace_id=`; a caller with a single workspace needs
 * to name none. Values are workspace ids or slugs. A workspace the caller does not belong to gets
 * the same answer as one that does not exist, so nothing of it leaks.
 */
let WorkspaceResolver = class WorkspaceResolver {
    /** The named workspace (not checked), from the connection: token, header or query. */
    connectionWorkspace(req, principal) {
        return principal.workspaceId ?? headerValue(req) ?? queryValue(req);
    }
    resolve(req, principal, argument) {
        const named = typeof argument === 'string' && argument ? argument : (headerValue(req) ?? queryValue(req));
        if (principal.workspaceId) {
            const bound = principal.memberships.find((m) => m.workspaceId === principal.workspaceId);
            if (!bound)
                throw new ForbiddenException('The workspace of this token is no longer yours');
            if (named && named !== bound.workspaceId && named !== bound.slug) {
                throw new ForbiddenException(`This token is bound to workspace "${bound.slug}"; it cannot act in "${named}"`);
            }
            return bound;
        }
        if (!named) {
            if (principal.memberships.length === 1)
                return principal.memberships[0];
            throw new BadRequestException('Name the workspace: pass workspace_id (id or slug) as an argument, the X-Workspace-Id header or ?workspace_id=. ' +
                `Yours: ${principal.memberships.map((m) => m.slug).join(', ') || 'none'}`);
        }
        const membership = this.membership(principal, named);
        if (!membership)
            throw new ForbiddenException(`Workspace "${named}" was not found among your workspaces`);
        return membership;
    }
    membership(principal, idOrSlug) {
        return principal.memberships.find((m) => m.workspaceId === idOrSlug || m.slug === idOrSlug);
    }
};
WorkspaceResolver = __decorate([
    Injectable()
], WorkspaceResolver);
export { WorkspaceResolver };
function headerValue(req) {
    const value = req.headers['x-workspace-id'];
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}
function queryValue(req) {
    const value = req.query?.workspace_id;
    return typeof value === 'string' && value ? value : undefined;
}
//# sourceMappingURL=workspace.resolver.js.map