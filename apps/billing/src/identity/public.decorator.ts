import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'identity:public';

/** A route that needs no token (documentation, OAuth metadata, health). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
