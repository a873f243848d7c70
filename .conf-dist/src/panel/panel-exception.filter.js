var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { randomUUID } from 'node:crypto';
import { Catch, HttpException, Logger } from '@nestjs/common';
import { panelSessionOf, safeReturnPath, sendPage } from './panel-http.js';
import { PanelCsrfRejected, PanelSignInRequired } from './panel-session.guard.js';
import { bouncePage } from './views/bounce.view.js';
import { messagePage } from './views/pages.js';
/** Every error of a panel route becomes a page (never JSON, never a stack trace). */
let PanelExceptionFilter = class PanelExceptionFilter {
    logger = new Logger('Panel');
    catch(exception, host) {
        const req = host.switchToHttp().getRequest();
        const res = host.switchToHttp().getResponse();
        if (res.headersSent)
            return;
        const session = panelSessionOf(req);
        const viewer = session && { email: session.email, name: session.name, csrfToken: session.csrfToken };
        if (exception instanceof PanelSignInRequired) {
            const next = safeReturnPath(req.method === 'GET' ? req.path : req.path.replace(/\/decision$/, ''));
            // A link followed from another site (a chat app): the browser withholds SameSite=Strict
            // cookies on that navigation. Re-navigate from our own origin once, so a signed-in person
            // is not asked to sign in again; without a session that second request lands on sign-in.
            if (req.method === 'GET' && req.headers['sec-fetch-site'] === 'cross-site') {
                sendPage(res, 200, bouncePage(next));
                return;
            }
            res.set('Cache-Control', 'no-store').redirect(303, `/admin/login?next=${encodeURIComponent(next)}`);
            return;
        }
        if (exception instanceof PanelCsrfRejected) {
            sendPage(res, 403, messagePage('Request refused', 'This form did not carry a valid security token (it may be old, or it came from another site). Nothing was done. Go back, reload the page and try again.', viewer));
            return;
        }
        if (exception instanceof HttpException) {
            const status = exception.getStatus();
            if (status === 404) {
                sendPage(res, 404, messagePage('Not found', 'There is no such page here.', viewer));
                return;
            }
            if (status < 500) {
                sendPage(res, status, messagePage('Request refused', 'The request could not be processed. Nothing was done.', viewer));
                return;
            }
        }
        const reference = randomUUID();
        this.logger.error(`Panel error ${reference} on ${req.method} ${req.path}: ${exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)}`);
        sendPage(res, 500, messagePage('Something went wrong', `Nothing more is known on this page. Reference: ${reference}.`, viewer));
    }
};
PanelExceptionFilter = __decorate([
    Catch()
], PanelExceptionFilter);
export { PanelExceptionFilter };
//# sourceMappingURL=panel-exception.filter.js.map