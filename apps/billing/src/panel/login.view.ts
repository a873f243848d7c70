import { html, type SafeHtml } from '@nest-mcp/admin';

/** The sign-in form (shown in the admin pages' layout by `McpAdminPages.send`). */
export function loginForm(options: { loginCsrf: string; next?: string; email?: string; error?: string }): SafeHtml {
  return html`<div class="card">
  <h1>Sign in</h1>
  <p class="lead">Sign in to review the actions agents asked to perform.</p>
  ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ''}
  <form method="post" action="/admin/login">
    <input type="hidden" name="_csrf" value="${options.loginCsrf}">
    ${options.next ? html`<input type="hidden" name="next" value="${options.next}">` : ''}
    <label for="email">Email</label>
    <input id="email" name="email" type="email" autocomplete="username" required value="${options.email ?? ''}">
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <div class="actions"><button type="submit">Sign in</button></div>
  </form>
</div>`;
}
