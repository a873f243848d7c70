// `node --import ./scripts/swc/register.mjs src/main.ts`: runs TypeScript sources without a build step (see hooks.mjs).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
