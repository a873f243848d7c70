var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
import { All, Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApprovalService } from '../approvals/approval.service.js';
import { Public } from '../identity/public.decorator.js';
import { ApprovalReferences } from './approval-references.js';
import { PANEL_SESSION_TTL_MS, PanelAuthService, randomSecret, sameSecret } from './panel-auth.service.js';
import { PanelExceptionFilter } from './panel-exception.filter.js';
import { LOGIN_COOKIE, SESSION_COOKIE, clearCookie, clientAddress, cookie, formField, panelSessionOf, safeReturnPath, sendPage, setCookie, } from './panel-http.js';
import { PanelAnonymous, PanelSessionGuard } from './panel-session.guard.js';
import { approvalDetailPage, approvalsListPage, loginPage, messagePage, outcomePage } from './views/pages.js';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOGIN_FORM_TTL_MS = 3_600_000;
const NOT_FOUND_MESSAGE = 'There is no approval with this link that you can decide. It may belong to a workspace where you are not an approver, or the link may be mistyped.';
/**
 * The admin pages (server-rendered HTML): sign-in, the pending approvals of the signed-in
 * person's workspaces, and one approval with Continue / Cancel. `@Public()` for the bearer-token
 * guards: these pages authenticate with their own session cookie (PanelSessionGuard).
 */
let PanelController = class PanelController {
    auth;
    approvals;
    references;
    constructor(auth, approvals, references) {
        this.auth = auth;
        this.approvals = approvals;
        this.references = references;
    }
    home(res) {
        res.redirect(303, '/admin/approvals');
    }
    async loginForm(req, res) {
        const next = safeReturnPath(req.query.next);
        if (await this.auth.session(cookie(req, SESSION_COOKIE))) {
            res.redirect(303, next);
            return;
        }
        this.showLogin(req, res, 200, { next });
    }
    async login(req, res) {
        const next = safeReturnPath(formField(req, 'next'));
        const email = formField(req, 'email') ?? '';
        if (!sameSecret(formField(req, '_csrf'), cookie(req, LOGIN_COOKIE))) {
            this.showLogin(req, res, 403, { next, email, error: 'The sign-in form expired or did not come from this site. Please try again.' });
            return;
        }
        const result = await this.auth.login(email, formField(req, 'password') ?? '', clientAddress(req));
        if (!result.ok) {
            const error = result.reason === 'throttled'
                ? `Too many failed sign-ins. Try again in ${Math.ceil((result.retryAfterMs ?? 60_000) / 60_000)} minutes.`
                : 'Wrong email or password.';
            if (result.reason === 'throttled')
                res.set('Retry-After', String(Math.ceil((result.retryAfterMs ?? 60_000) / 1000)));
            this.showLogin(req, res, result.reason === 'throttled' ? 429 : 401, { next, email, error });
            return;
        }
        clearCookie(req, res, LOGIN_COOKIE);
        setCookie(req, res, SESSION_COOKIE, result.secret, PANEL_SESSION_TTL_MS);
        res.set('Cache-Control', 'no-store').redirect(303, next);
    }
    async logout(req, res) {
        await this.auth.logout(this.session(req).id);
        clearCookie(req, res, SESSION_COOKIE);
        res.set('Cache-Control', 'no-store').redirect(303, '/admin/login');
    }
    async list(req, res) {
        const session = this.session(req);
        sendPage(res, 200, approvalsListPage(viewerOf(session), await this.approvals.listPending(session.userId)));
    }
    async detail(id, req, res) {
        const session = this.session(req);
        const viewer = viewerOf(session);
        const approval = UUID.test(id) ? await this.approvals.find(id.toLowerCase(), session.userId) : undefined;
        if (!approval) {
            sendPage(res, 404, messagePage('Approval not found', NOT_FOUND_MESSAGE, viewer));
            return;
        }
        if (approval.status === 'expired') {
            sendPage(res, 410, outcomePage(viewer, 'expired', approval));
            return;
        }
        sendPage(res, 200, approvalDetailPage(viewer, approval, await this.references.of(approval)));
    }
    async decide(id, req, res) {
        const session = this.session(req);
        const viewer = viewerOf(session);
        const decision = formField(req, 'decision');
        if (decision !== 'continue' && decision !== 'cancel') {
            sendPage(res, 400, messagePage('Choose Continue or Cancel', 'The form did not say what to do. Nothing was done.', viewer, { href: `/admin/approvals/${encodeURIComponent(id)}`, label: '← Back to the approval' }));
            return;
        }
        const outcome = UUID.test(id) ? await this.approvals.decide(id.toLowerCase(), session.userId, decision, req) : { kind: 'not_found' };
        switch (outcome.kind) {
            case 'not_found':
                sendPage(res, 404, messagePage('Approval not found', NOT_FOUND_MESSAGE, viewer));
                return;
            case 'already_decided':
                sendPage(res, 409, outcomePage(viewer, 'already_decided', outcome.approval));
                return;
            case 'expired':
                sendPage(res, 410, outcomePage(viewer, 'expired', outcome.approval));
                return;
            default:
                sendPage(res, 200, outcomePage(viewer, outcome.kind, outcome.approval));
        }
    }
    /** Anything else under /admin: a 404 page (after sign-in, so it tells nothing to strangers). */
    notFound(req, res) {
        sendPage(res, 404, messagePage('Not found', 'There is no such page here.', viewerOf(this.session(req))));
    }
    session(req) {
        const session = panelSessionOf(req);
        if (!session)
            throw new Error('PanelSessionGuard did not run');
        return session;
    }
    showLogin(req, res, status, options) {
        // A fresh double-submit secret for every form shown (HttpOnly, SameSite=Strict, /admin only).
        const loginCsrf = randomSecret();
        setCookie(req, res, LOGIN_COOKIE, loginCsrf, LOGIN_FORM_TTL_MS);
        sendPage(res, status, loginPage({ loginCsrf, next: options.next === '/admin/approvals' ? undefined : options.next, email: options.email, error: options.error }));
    }
};
__decorate([
    Get(),
    __param(0, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", void 0)
], PanelController.prototype, "home", null);
__decorate([
    Get('login'),
    PanelAnonymous(),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], PanelController.prototype, "loginForm", null);
__decorate([
    Post('login'),
    PanelAnonymous(),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], PanelController.prototype, "login", null);
__decorate([
    Post('logout'),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], PanelController.prototype, "logout", null);
__decorate([
    Get('approvals'),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", Promise)
], PanelController.prototype, "list", null);
__decorate([
    Get('approvals/:id'),
    __param(0, Param('id')),
    __param(1, Req()),
    __param(2, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Object]),
    __metadata("design:returntype", Promise)
], PanelController.prototype, "detail", null);
__decorate([
    Post('approvals/:id/decision'),
    __param(0, Param('id')),
    __param(1, Req()),
    __param(2, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String, Object, Object]),
    __metadata("design:returntype", Promise)
], PanelController.prototype, "decide", null);
__decorate([
    All('*rest'),
    __param(0, Req()),
    __param(1, Res()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Object]),
    __metadata("design:returntype", void 0)
], PanelController.prototype, "notFound", null);
PanelController = __decorate([
    Controller('admin'),
    Public(),
    UseGuards(PanelSessionGuard),
    UseFilters(PanelExceptionFilter),
    __metadata("design:paramtypes", [PanelAuthService,
        ApprovalService,
        ApprovalReferences])
], PanelController);
export { PanelController };
function viewerOf(session) {
    return { email: session.email, name: session.name, csrfToken: session.csrfToken };
}
//# sourceMappingURL=panel.controller.js.map