const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The sign-in page served when no identity provider is configured: the same session as the
 * OpenID flow, for a self-hosted instance on one machine.
 */
export function localSignInPage(invite: string | undefined, error?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in (local mode) - Sift</title>
<style>
body{font-family:system-ui,sans-serif;background:#f8fafc;display:grid;place-items:center;min-height:100vh;margin:0;color:#0f172a}
main{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:32px;width:min(360px,90vw);box-shadow:0 1px 3px #0001}
h1{font-size:20px;margin:0 0 4px}p{color:#475569;font-size:14px;margin:0 0 20px}
label{display:block;font-size:14px;font-weight:500;margin:12px 0 4px}
input{width:100%;box-sizing:border-box;padding:8px 10px;border:1px solid #cbd5e1;border-radius:6px;font-size:14px}
button{margin-top:20px;width:100%;padding:10px;border:0;border-radius:6px;background:#0f172a;color:#fff;font-size:14px;cursor:pointer}
.error{color:#b91c1c;font-size:14px;margin-top:12px}
</style></head>
<body><main>
<h1>Sign in</h1>
<p>Local mode: no identity provider is configured, so this server signs you in by name and e-mail.</p>
<form method="post" action="/auth/local/login">
<label for="name">Name</label><input id="name" name="name" required autocomplete="name" autofocus>
<label for="email">E-mail</label><input id="email" name="email" type="email" required autocomplete="email">
${invite ? `<input type="hidden" name="invite" value="${escape(invite)}">` : ''}
<button type="submit">Continue</button>
${error ? `<div class="error" role="alert">${escape(error)}</div>` : ''}
</form></main></body></html>`;
}
