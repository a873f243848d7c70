import { hash, verify } from '@node-rs/argon2';

/**
 * Panel passwords: Argon2id (the `@node-rs/argon2` defaults: 19 MiB, 2 passes, 1 lane, the OWASP
 * minimum), stored as a PHC string in `users.password_hash`.
 */
export function hashPanelPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password or a hash that cannot be read; never throws. */
export async function verifyPanelPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
