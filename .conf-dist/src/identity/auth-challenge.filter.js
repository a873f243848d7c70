var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Catch } from '@nestjs/common';
import { AuthenticationRequiredException, InsufficientScopeException } from './auth-challenge.js';
/** REST side of the auth challenges: the `WWW-Authenticate` header goes on the response, not in the body. */
let AuthChallengeFilter = class AuthChallengeFilter {
    catch(exception, host) {
        const res = host.switchToHttp().getResponse();
        const { headers, ...body } = exception.getResponse();
        res.set(headers).status(exception.getStatus()).json(body);
    }
};
AuthChallengeFilter = __decorate([
    Catch(AuthenticationRequiredException, InsufficientScopeException)
], AuthChallengeFilter);
export { AuthChallengeFilter };
//# sourceMappingURL=auth-challenge.filter.js.map