var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { ApiProperty } from '@nestjs/swagger';
export class ServerStatusDto {
    status;
    time;
    uptimeSeconds;
}
__decorate([
    ApiProperty({ description: 'Always "ok" when the server answers.' }),
    __metadata("design:type", String)
], ServerStatusDto.prototype, "status", void 0);
__decorate([
    ApiProperty({ description: 'Server time, ISO 8601 (UTC).', format: 'date-time' }),
    __metadata("design:type", String)
], ServerStatusDto.prototype, "time", void 0);
__decorate([
    ApiProperty({ description: 'Seconds since the process started.' }),
    __metadata("design:type", Number)
], ServerStatusDto.prototype, "uptimeSeconds", void 0);
//# sourceMappingURL=status.dto.js.map