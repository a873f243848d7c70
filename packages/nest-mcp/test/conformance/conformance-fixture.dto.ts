import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

/** `test_sampling`: the suite sends `{ prompt: "Test prompt for sampling" }`. */
export class SamplingInputDto {
  @ApiProperty({ description: 'The prompt to send to the LLM.' })
  @IsString()
  prompt: string;
}

/** `test_elicitation`: the suite sends `{ message: "Please provide your information" }`. */
export class ElicitationInputDto {
  @ApiProperty({ description: 'The message to show the user.' })
  @IsString()
  message: string;
}

/** `test_prompt_with_arguments`: both arguments are required (the suite checks they are echoed). */
export class PromptArgumentsDto {
  @ApiProperty({ description: 'First test argument' })
  @IsString()
  arg1: string;

  @ApiProperty({ description: 'Second test argument' })
  @IsString()
  arg2: string;
}

/** `test_prompt_with_embedded_resource`: the URI to embed (the suite sends `test://example-resource`). */
export class EmbeddedResourceArgsDto {
  @ApiProperty({ description: 'URI of the resource to embed' })
  @IsString()
  resourceUri: string;
}
