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
import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp/index.js';
import { AuthenticationRequiredException, resourceMetadataUrl } from './auth-challenge.js';
import { IDENTITY_CONFIG } from './identity.config.js';
import { JwtTokenVerifier } from './jwt-token.verifier.js';
import { PersonalTokenService } from './personal-token.service.js';
import { looksLikePersonalToken } from './token-secret.js';
/** Finds the caller of a request: `Authorization: Bearer <token>`, or `X-API-Key: <token>`. */
let AuthenticationService = class AuthenticationService {
    personalTokens;
    jwt;
    config;
    mcp;
    constructor(personalTokens, jwt, config, mcp) {
        this.personalTokens = personalTokens;
        this.jwt = jwt;
        this.config = config;
        this.mcp = mcp;
    }
    async authenticate(req) {
        const metadataUrl = resourceMetadataUrl(this.config.publicUrl);
        const token = bearerToken(req);
        if (!token) {
            throw new AuthenticationRequiredException('Authentication required: send "Authorization: Bearer <token>" (or "X-API-Key: <token>")', metadataUrl);
        }
        const check = looksLikePersonalToken(token) || !this.jwt.enabled
            ? await this.personalTokens.check(token)
            : await this.jwt.check(token, this.audience);
        if (!check.ok)
            throw new AuthenticationRequiredException(check.reason, metadataUrl, true);
        return check.principal;
    }
    /** This server's MCP endpoint as an OAuth resource, from the public URL fixed at boot (never the request's Host). */
    get resourceUrl() {
        return `${this.config.publicUrl}${this.mcp.path}`;
    }
    /** The `aud` a JWT must name: AUTH_JWT_AUDIENCE, else this resource. */
    get audience() {
        return this.config.jwtAudience ?? this.resourceUrl;
    }
};
AuthenticationService = __decorate([
    Injectable(),
    __param(2, Inject(IDENTITY_CONFIG)),
    __param(3, Inject(MCP_OPTIONS)),
    __metadata("design:paramtypes", [PersonalTokenService,
        JwtTokenVerifier, Object, Object])
], AuthenticationService);
export { AuthenticationService };
function bearerToken(req) {
    const authorization = req.headers.authorization;
    if (authorization) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
        return match?.[1];
    }
    const apiKey = req.headers['x-api-key'];
    return typeof apiKey === 'string' && apiKey.trim() ? apiKey.trim() : undefined;
}
//# sourceMappingURL=authentication.service.js.map