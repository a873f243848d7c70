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
import { IsString } from 'class-validator';
/** `test_sampling`: the suite sends `{ prompt: "Test prompt for sampling" }`. */
export class SamplingInputDto {
    prompt;
}
__decorate([
    ApiProperty({ description: 'The prompt to send to the LLM.' }),
    IsString(),
    __metadata("design:type", String)
], SamplingInputDto.prototype, "prompt", void 0);
/** `test_elicitation`: the suite sends `{ message: "Please provide your information" }`. */
export class ElicitationInputDto {
    message;
}
__decorate([
    ApiProperty({ description: 'The message to show the user.' }),
    IsString(),
    __metadata("design:type", String)
], ElicitationInputDto.prototype, "message", void 0);
/** `test_prompt_with_arguments`: both arguments are required (the suite checks they are echoed). */
export class PromptArgumentsDto {
    arg1;
    arg2;
}
__decorate([
    ApiProperty({ description: 'First test argument' }),
    IsString(),
    __metadata("design:type", String)
], PromptArgumentsDto.prototype, "arg1", void 0);
__decorate([
    ApiProperty({ description: 'Second test argument' }),
    IsString(),
    __metadata("design:type", String)
], PromptArgumentsDto.prototype, "arg2", void 0);
/** `test_prompt_with_embedded_resource`: the URI to embed (the suite sends `test://example-resource`). */
export class EmbeddedResourceArgsDto {
    resourceUri;
}
__decorate([
    ApiProperty({ description: 'URI of the resource to embed' }),
    IsString(),
    __metadata("design:type", String)
], EmbeddedResourceArgsDto.prototype, "resourceUri", void 0);
//# sourceMappingURL=conformance-fixture.dto.js.map