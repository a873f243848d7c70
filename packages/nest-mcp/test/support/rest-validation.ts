import { ValidationPipe, type INestApplication } from '@nestjs/common';

/** What an installing app's main.ts does for its REST routes: the same DTOs validate REST bodies (docs/installing.md). */
export function withRestValidation(app: INestApplication): void {
  app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }));
}
