/**
 * When each caller was last sent to get a scope by the step-up challenge (403
 * `insufficient_scope`), so that a token issued after it that still lacks the scope gets a plain
 * refusal instead of the same challenge again: the authorization server did not grant it, and a
 * client that re-authorised on every challenge would send the person through sign-in after
 * sign-in. Any replica may answer the retry: behind a load balancer this must be shared (the
 * `stepUps` extension of `McpAuthModule`); the default below holds for a single process.
 */
export interface McpStepUpStore {
  /** Records that `callerId` was challenged for each of `scopes` at `at` (epoch ms); kept at least `keepMs`. */
  challenged(callerId: string, scopes: readonly string[], at: number, keepMs: number): Promise<void>;
  /** When `callerId` was last challenged for each of `scopes`, for those challenged less than `withinMs` ago. */
  lastChallenged(callerId: string, scopes: readonly string[], withinMs: number): Promise<Map<string, number>>;
}

export const MCP_AUTH_STEP_UPS = Symbol('MCP_AUTH_STEP_UPS');

/** How many caller and scope pairs the in-memory default keeps: past it, the oldest challenge goes. */
export const IN_MEMORY_STEP_UPS = 10_000;

/** Single-process default: fine for tests and one replica, wrong behind a load balancer. */
export class InMemoryStepUpStore implements McpStepUpStore {
  /** `callerId scope` → when, in the order recorded (a Map keeps insertion order): the oldest first. */
  private readonly challenges = new Map<string, number>();

  async challenged(callerId: string, scopes: readonly string[], at: number): Promise<void> {
    for (const scope of scopes) {
      const key = `${callerId} ${scope}`;
      this.challenges.delete(key);
      this.challenges.set(key, at);
      if (this.challenges.size > IN_MEMORY_STEP_UPS) this.challenges.delete(this.challenges.keys().next().value!);
    }
  }

  async lastChallenged(callerId: string, scopes: readonly string[], withinMs: number): Promise<Map<string, number>> {
    const since = Date.now() - withinMs;
    const found = new Map<string, number>();
    for (const scope of scopes) {
      const at = this.challenges.get(`${callerId} ${scope}`);
      if (at !== undefined && at > since) found.set(scope, at);
    }
    return found;
  }
}
