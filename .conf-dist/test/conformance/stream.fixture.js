var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { McpTool } from '../../src/mcp/index.js';
import { ElicitationInputDto, SamplingInputDto } from './conformance-fixture.dto.js';
/**
 * The conformance suite's stream scenarios (progress, log messages, sampling, elicitation with
 * SEP-1034 defaults and SEP-1330 enums), served by the layer's stream mode: the same handler code
 * in both eras (`invocation.progress/log/sample/elicit`). Names and literals are the suite's.
 */
const text = (value) => ({ type: 'text', text: value });
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let StreamFixtures = class StreamFixtures {
    async withProgress(_input, invocation) {
        await invocation.progress(0, 100);
        await pause(50);
        await invocation.progress(50, 100);
        await pause(50);
        await invocation.progress(100, 100);
        return { content: [text('Progress tool completed.')] };
    }
    async withLogging(_input, invocation) {
        await invocation.log('info', 'Tool execution started');
        await pause(50);
        await invocation.log('info', 'Tool processing data');
        await pause(50);
        await invocation.log('info', 'Tool execution completed');
        return { content: [text('Tool with logging executed successfully.')] };
    }
    async sampling(input, invocation) {
        const answer = await invocation.sample({ messages: [{ role: 'user', content: text(input.prompt) }], maxTokens: 100 });
        const content = answer.content;
        return { content: [text(`LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`)] };
    }
    async elicitation(input, invocation) {
        const answer = await invocation.elicit({
            message: input.message,
            requestedSchema: {
                type: 'object',
                properties: {
                    username: { type: 'string', description: "User's response" },
                    email: { type: 'string', description: "User's email address" },
                },
                required: ['username', 'email'],
            },
        });
        return { content: [text(`User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)] };
    }
    async elicitationDefaults(_input, invocation) {
        const answer = await invocation.elicit({
            message: 'Please review and update the form fields with defaults',
            requestedSchema: {
                type: 'object',
                properties: {
                    name: { type: 'string', description: 'User name', default: 'John Doe' },
                    age: { type: 'integer', description: 'User age', default: 30 },
                    score: { type: 'number', description: 'User score', default: 95.5 },
                    status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
                    verified: { type: 'boolean', description: 'Verification status', default: true },
                },
                required: [],
            },
        });
        return { content: [text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)] };
    }
    async elicitationEnums(_input, invocation) {
        const answer = await invocation.elicit({
            message: 'Please select options from the enum fields',
            requestedSchema: {
                type: 'object',
                properties: {
                    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
                    titledSingle: {
                        type: 'string',
                        description: 'Select one option with titles',
                        oneOf: [
                            { const: 'value1', title: 'First Option' },
                            { const: 'value2', title: 'Second Option' },
                            { const: 'value3', title: 'Third Option' },
                        ],
                    },
                    legacyEnum: {
                        type: 'string',
                        description: 'Select one option (legacy)',
                        enum: ['opt1', 'opt2', 'opt3'],
                        enumNames: ['Option One', 'Option Two', 'Option Three'],
                    },
                    untitledMulti: {
                        type: 'array',
                        description: 'Select multiple options',
                        minItems: 1,
                        maxItems: 3,
                        items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
                    },
                    titledMulti: {
                        type: 'array',
                        description: 'Select multiple options with titles',
                        minItems: 1,
                        maxItems: 3,
                        items: {
                            anyOf: [
                                { const: 'value1', title: 'First Choice' },
                                { const: 'value2', title: 'Second Choice' },
                                { const: 'value3', title: 'Third Choice' },
                            ],
                        },
                    },
                },
                required: [],
            },
        });
        return { content: [text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`)] };
    }
};
__decorate([
    McpTool({ name: 'test_tool_with_progress', description: 'Tests tool that reports progress notifications' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [void 0, Object]),
    __metadata("design:returntype", Promise)
], StreamFixtures.prototype, "withProgress", null);
__decorate([
    McpTool({ name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [void 0, Object]),
    __metadata("design:returntype", Promise)
], StreamFixtures.prototype, "withLogging", null);
__decorate([
    McpTool({ name: 'test_sampling', description: 'Tests server-initiated sampling (LLM completion request)' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [SamplingInputDto, Object]),
    __metadata("design:returntype", Promise)
], StreamFixtures.prototype, "sampling", null);
__decorate([
    McpTool({ name: 'test_elicitation', description: 'Tests server-initiated elicitation (user input request)' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [ElicitationInputDto, Object]),
    __metadata("design:returntype", Promise)
], StreamFixtures.prototype, "elicitation", null);
__decorate([
    McpTool({ name: 'test_elicitation_sep1034_defaults', description: 'Elicitation with default values for every primitive type (SEP-1034)' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [void 0, Object]),
    __metadata("design:returntype", Promise)
], StreamFixtures.prototype, "elicitationDefaults", null);
__decorate([
    McpTool({ name: 'test_elicitation_sep1330_enums', description: 'Elicitation with the five enum schema variants (SEP-1330)' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [void 0, Object]),
    __metadata("design:returntype", Promise)
], StreamFixtures.prototype, "elicitationEnums", null);
StreamFixtures = __decorate([
    Injectable()
], StreamFixtures);
export { StreamFixtures };
//# sourceMappingURL=stream.fixture.js.map