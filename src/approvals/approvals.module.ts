import { Global, Module } from '@nestjs/common';

/** Approval links for destructive MCP calls (placeholder: being built). */
@Global()
@Module({})
export class ApprovalsModule {}
