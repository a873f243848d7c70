var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MinLength, Min } from 'class-validator';
/** `"10"` → 10, `"abc"` → NaN (then refused by @IsInt, naming the variable); unset or blank → undefined. */
const toNumber = () => Transform(({ value }) => (typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : undefined));
const toBoolean = () => Transform(({ value }) => {
    if (typeof value !== 'string' || value.trim() === '')
        return undefined;
    const text = value.trim().toLowerCase();
    return text === 'true' ? true : text === 'false' ? false : value;
});
const blankIsUnset = () => Transform(({ value }) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined));
/**
 * The process environment the server reads, as a class-validator DTO validated once at boot
 * (`readEnvironment()`): a bad value stops the boot with the variable's name instead of becoming
 * `NaN` or a silent default. Every value is optional; defaults are applied by `readEnvironment`.
 *
 * The settings of one feature that need more than a format check (rate limits, idempotency,
 * approvals, identity, the token cache, demo mode, tracing, log format) are read from the same
 * validated environment by that feature's `*FromEnv` reader, which stops the boot the same way.
 */
export class EnvironmentVariables {
    NODE_ENV;
    /** Nest's own log-level variable (`debug`, `warn,error`, `>=log`); Nest validates its value. */
    NEST_LOG_LEVEL;
    HOST;
    PORT;
    /** How many replicas serve this deployment; more than one needs MCP_STATE_SECRET. */
    REPLICAS;
    DATABASE_URL;
    DATABASE_MIGRATE;
    DATABASE_POOL_SIZE;
    DATABASE_CONNECT_TIMEOUT_MS;
    DATABASE_RETRY_AFTER_SECONDS;
    HEALTH_DB_TIMEOUT_MS;
    SHUTDOWN_DELAY_MS;
    SHUTDOWN_TIMEOUT_MS;
    AUTH_JWKS_COOLDOWN_MS;
    /** HMAC key of multi round-trip state, shared by every replica. */
    MCP_STATE_SECRET;
    MCP_DESTRUCTIVE_CONFIRMATION;
}
__decorate([
    IsOptional(),
    IsString(),
    __metadata("design:type", String)
], EnvironmentVariables.prototype, "NODE_ENV", void 0);
__decorate([
    IsOptional(),
    IsString(),
    __metadata("design:type", String)
], EnvironmentVariables.prototype, "NEST_LOG_LEVEL", void 0);
__decorate([
    IsOptional(),
    blankIsUnset(),
    IsString(),
    __metadata("design:type", String)
], EnvironmentVariables.prototype, "HOST", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'PORT must be an integer from 0 to 65535 (0 picks a free port)' }),
    Min(0),
    Max(65_535),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "PORT", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'REPLICAS must be a positive integer' }),
    Min(1),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "REPLICAS", void 0);
__decorate([
    IsOptional(),
    blankIsUnset(),
    Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgresql:// URL' }),
    __metadata("design:type", String)
], EnvironmentVariables.prototype, "DATABASE_URL", void 0);
__decorate([
    IsOptional(),
    toBoolean(),
    IsIn([true, false], { message: 'DATABASE_MIGRATE must be true or false' }),
    __metadata("design:type", Boolean)
], EnvironmentVariables.prototype, "DATABASE_MIGRATE", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'DATABASE_POOL_SIZE must be an integer from 1 to 1000' }),
    Min(1),
    Max(1_000),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "DATABASE_POOL_SIZE", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'DATABASE_CONNECT_TIMEOUT_MS must be an integer ≥ 1 (milliseconds)' }),
    Min(1),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "DATABASE_CONNECT_TIMEOUT_MS", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'DATABASE_RETRY_AFTER_SECONDS must be an integer ≥ 1' }),
    Min(1),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "DATABASE_RETRY_AFTER_SECONDS", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'HEALTH_DB_TIMEOUT_MS must be an integer ≥ 1 (milliseconds)' }),
    Min(1),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "HEALTH_DB_TIMEOUT_MS", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'SHUTDOWN_DELAY_MS must be an integer ≥ 0 (milliseconds)' }),
    Min(0),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "SHUTDOWN_DELAY_MS", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'SHUTDOWN_TIMEOUT_MS must be an integer ≥ 0 (milliseconds)' }),
    Min(0),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "SHUTDOWN_TIMEOUT_MS", void 0);
__decorate([
    IsOptional(),
    toNumber(),
    IsInt({ message: 'AUTH_JWKS_COOLDOWN_MS must be an integer ≥ 0 (milliseconds)' }),
    Min(0),
    __metadata("design:type", Number)
], EnvironmentVariables.prototype, "AUTH_JWKS_COOLDOWN_MS", void 0);
__decorate([
    IsOptional(),
    blankIsUnset(),
    MinLength(32, { message: 'MCP_STATE_SECRET must be at least 32 characters (e.g. openssl rand -base64 32)' }),
    __metadata("design:type", String)
], EnvironmentVariables.prototype, "MCP_STATE_SECRET", void 0);
__decorate([
    IsOptional(),
    blankIsUnset(),
    IsIn(['elicitation-or-link', 'link'], { message: 'MCP_DESTRUCTIVE_CONFIRMATION must be elicitation-or-link or link' }),
    __metadata("design:type", String)
], EnvironmentVariables.prototype, "MCP_DESTRUCTIVE_CONFIRMATION", void 0);
//# sourceMappingURL=environment.variables.js.map