import { SetMetadata } from '@nestjs/common';

export const WORKSPACE_SCOPED = 'identity:workspaceScoped';

/** A controller or handler whose data belongs to one workspace: the caller must name one they belong to. */
export const WorkspaceScoped = () => SetMetadata(WORKSPACE_SCOPED, true);
