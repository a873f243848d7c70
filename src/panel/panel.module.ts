import { Module } from '@nestjs/common';

/** The admin pages under /admin: sign-in and approvals (placeholder: being built). */
@Module({})
export class PanelModule {}
