import { ArgumentsHost, Catch, HttpException, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { AuthenticationRequiredException, InsufficientScopeException } from './auth-challenge.js';

/** REST side of the auth challenges: the `WWW-Authenticate` header goes on the response, not in the body. */
@Catch(AuthenticationRequiredException, InsufficientScopeException)
export class AuthChallengeFilter implements ExceptionFilter {
  catch(exception: HttpException, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { headers, ...body } = exception.getResponse() as { headers: Record<string, string> };
    res.set(headers).status(exception.getStatus()).json(body);
  }
}
