import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider for tests (panva's oidc-provider, certified), started on a loopback port:
 * dynamic client registration, client ID metadata documents, PKCE, resource indicators, JWT
 * access tokens typed `at+jwt`, and a devInteractions login any password passes. `grantable()`
 * is its policy: the resource scopes it grants now (what an administrator of the provider allows).
 */
export interface TestIdp {
  issuer: string;
  /** Signs a token with the provider's own key (as served by its JWKS), for claims a real flow would not produce. */
  sign(claims: JWTPayload, header?: { typ?: string }): Promise<string>;
  close(): Promise<void>;
}

export const REDIRECT_URL = 'http://127.0.0.1:1/callback';
/** The client ID metadata document a client hosts (SEP-991): the provider fetches it by its URL. */
export const CLIENT_METADATA_URL = 'https://client.example.test/mcp-client.json';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function startTestIdp(options: {
  port: number;
  resource: string;
  scopes: string[];
  grantable: () => string[];
  /** Clients registered up front (besides dynamic registration and metadata documents). */
  clients?: object[];
  /** The scope a client's metadata document declares (the provider caps the client at it). */
  documentScope?: string;
}): Promise<TestIdp> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `idp-${options.port}-${Math.random().toString(36).slice(2, 8)}`;
  const provider = new Provider(issuer, {
    clients: options.clients ?? [],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }] },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ sub, email: `${sub}@idp.test`, email_verified: true }),
    }),
    scopes: ['openid', 'offline_access', ...options.scopes],
    pkce: { required: () => true },
    // The document's host is not reachable from here: the provider's outgoing fetch answers for it.
    fetch: async (url: string | URL) => {
      assert.equal(String(url), CLIENT_METADATA_URL, 'the provider fetches only the client metadata document');
      return Response.json({
        client_id: CLIENT_METADATA_URL,
        client_name: 'billing test client (metadata document)',
        redirect_uris: [REDIRECT_URL],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...(options.documentScope ? { scope: options.documentScope } : {}),
      });
    },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02', allowFetch: async () => true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          assert.equal(indicator, options.resource, 'the client asks for this server as its resource');
          return {
            scope: options.grantable().join(' '),
            audience: indicator,
            accessTokenFormat: 'jwt',
            accessTokenTTL: 600,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  } as ConstructorParameters<typeof Provider>[1]);
  const handle = provider.callback();
  const server: Server = createHttpServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    issuer,
    sign: (claims, header = {}) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: header.typ ?? 'at+jwt' }).sign(privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A browser with cookies: follows the provider's redirects and submits its dev login and consent
 * forms; resolves with the parameters of the redirect back to the client (`code`, `iss`, `state`),
 * or rejects with the provider's error redirect (`invalid_scope`, …).
 */
export async function authorizeInBrowser(authorizationUrl: URL, login: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl.href;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as object), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      cookies.set(name.trim(), value.join('='));
    }
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(REDIRECT_URL)) {
        const error = next.searchParams.get('error');
        if (error) throw new Error(`the provider refused: ${error} (${next.searchParams.get('error_description')})`);
        assert.ok(next.searchParams.get('code'), `the provider redirected without a code: ${next.href}`);
        return next.searchParams;
      }
      url = next.href;
      init = {};
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    assert.ok(action, `no form on ${url} (status ${response.status}): ${html.slice(0, 300)}`);
    const fields = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g))
      fields.set(name, value);
    if (/name="login"/.test(html)) {
      fields.set('login', login);
      fields.set('password', 'any');
    }
    url = new URL(action, url).href;
    init = { method: 'POST', body: fields.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('the authorization flow did not end in a redirect with a code');
}

/**
 * What an MCP host keeps for one server and one person (both official clients take it): the
 * client's registration (`dcr`: registered dynamically; `cimd`: its metadata document's URL;
 * `{ clientId }`: registered up front by an operator), the PKCE verifier and the tokens. The
 * browser part is `authorizeInBrowser`; `authorizations` counts the trips to the provider.
 */
export class HostAuth implements OAuthClientProvider {
  authorizations = 0;
  callback?: Promise<URLSearchParams>;
  registered?: OAuthClientInformationMixed;
  private saved?: OAuthTokens;
  private verifier = '';

  constructor(
    private readonly login: string,
    private readonly registration: 'dcr' | 'cimd' | { clientId: string },
  ) {
    if (typeof registration === 'object') this.registered = { client_id: registration.clientId };
  }

  get redirectUrl(): string {
    return REDIRECT_URL;
  }
  get clientMetadataUrl(): string | undefined {
    return this.registration === 'cimd' ? CLIENT_METADATA_URL : undefined;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'billing test host',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.registered;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.registered = info;
  }
  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizations++;
    this.callback = authorizeInBrowser(authorizationUrl, this.login);
  }
  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}
