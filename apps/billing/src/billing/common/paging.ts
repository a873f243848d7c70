import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
/**
 * Above every cursor this server issues: the longest sort key is a 200-character customer name, which
 * JSON and base64url can turn into ~1,700 characters (control characters become `\uXXXX`).
 */
const MAX_CURSOR_LENGTH = 2048;

// Each decorator lists its validators in the order stacked decorators would be applied (bottom-up):
// the type check is registered first, so its message is the one a caller sees first.

/** The `limit` of a REST list query: the page size, an integer (a query string is converted). */
export function PageLimit(): PropertyDecorator {
  const message = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;
  return applyDecorators(
    IsInt({ message }),
    Max(MAX_PAGE_SIZE, { message }),
    Min(1, { message }),
    Type(() => Number),
    IsOptional(),
    ApiPropertyOptional({ description: `Page size, 1–${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`, default: DEFAULT_PAGE_SIZE }),
  );
}

/** The `cursor` of a REST list query: the `next_cursor` of the previous page. */
export function PageCursor(): PropertyDecorator {
  return applyDecorators(
    IsString(),
    MaxLength(MAX_CURSOR_LENGTH),
    IsOptional(),
    ApiPropertyOptional({ description: 'next_cursor of the previous page, unchanged.' }),
  );
}

/** The `next_cursor` of a list answer; a tool's answer may word it for the model. */
export function NextCursor(description = 'Pass it as cursor for the next page; null on the last page.'): PropertyDecorator {
  return ApiPropertyOptional({ description, type: String, nullable: true });
}
