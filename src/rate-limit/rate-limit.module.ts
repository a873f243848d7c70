import { Module } from '@nestjs/common';

/** Rate limits per token and per workspace (placeholder: being built). */
@Module({})
export class RateLimitModule {}
