import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpHeader, McpTool } from '@nest-mcp/core';

/** The input of test_header_parameter: `region` travels in the body and as `Mcp-Param-Region`. */
export class RegionArgsDto {
  @McpHeader('Region')
  @IsString()
  region!: string;
}

/**
 * A tool with a header parameter, for the suite's custom-header scenario
 * (http-custom-header-server-validation): it lists the first tool whose schema has an
 * `x-mcp-header` property, then checks that the endpoint decodes `Mcp-Param-Region` and refuses
 * a call whose header is missing, malformed or not the body's value.
 */
@Injectable()
export class HeaderParameterFixtures {
  @McpTool({ name: 'test_header_parameter', description: 'Echoes its region, which clients also send as the Mcp-Param-Region header' })
  headerParameter(input: RegionArgsDto) {
    return { content: [{ type: 'text' as const, text: `region: ${input.region}` }] };
  }
}
