var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
/** Arguments of a workspace-scoped operation: the workspace may be named per call. */
export class WorkspaceScopedDto {
    workspace_id;
}
__decorate([
    ApiPropertyOptional({
        description: 'Workspace id or slug to act in. Omit it when your token is bound to one workspace, when you belong to only one, ' +
            'or when the connection sets X-Workspace-Id.',
        example: 'demo',
    }),
    IsOptional(),
    IsString(),
    MaxLength(64),
    __metadata("design:type", String)
], WorkspaceScopedDto.prototype, "workspace_id", void 0);
//# sourceMappingURL=workspace-scoped.dto.js.map