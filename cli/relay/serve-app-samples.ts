// The sample web-server configs `relay serve-app` writes next to the phone app: HTTPS only, the app's
// Content-Security-Policy as a header (with frame-ancestors, which a meta tag cannot carry), and caching
// that lets a new release reach the phone: index.html and sw.js always revalidated, hashed assets kept.

/** Response headers every file of the app gets. */
function securityHeaders(csp: string): Array<[string, string]> {
  return [
    ['Content-Security-Policy', csp],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'no-referrer'],
    ['Strict-Transport-Security', 'max-age=31536000'],
  ]
}

/**
 * The Caddy and nginx samples for serving the folder they sit in at `https://app.example.org/` (the person
 * replaces the host name and paths). `csp` is the header policy, frame-ancestors included.
 */
export function webServerSamples(csp: string): { caddy: string; nginx: string } {
  const headers = securityHeaders(csp)
  const caddy = [
    '# Sample Caddy site for the Ask User phone app (written by `ask-user relay serve-app`).',
    '# Replace app.example.org and the root path; Caddy gets the HTTPS certificate itself and redirects http.',
    'app.example.org {',
    '\troot * /srv/ask-user-app',
    '\tfile_server',
    '\t# The sample configs are not part of the app.',
    '\t@samples path /ask-user-app.caddy /ask-user-app.nginx.conf',
    '\trespond @samples 404',
    '\theader {',
    ...headers.map(([name, value]) => `\t\t${name} "${value}"`),
    '\t}',
    '\t# A new release must reach the phone: the page and the service worker are always revalidated.',
    '\t@fresh path / /index.html /sw.js',
    '\theader @fresh Cache-Control "no-cache"',
    '\t# Asset names carry a content hash: they never change under the same name.',
    '\theader /assets/* Cache-Control "public, max-age=31536000, immutable"',
    '}',
    '',
  ].join('\n')
  const add = (indent: string): string[] =>
    headers.map(([name, value]) => `${indent}add_header ${name} "${value}" always;`)
  const nginx = [
    '# Sample nginx server for the Ask User phone app (written by `ask-user relay serve-app`).',
    '# Replace app.example.org, the certificate paths and the root path. HTTPS only: http is redirected.',
    'server {',
    '    listen 80;',
    '    server_name app.example.org;',
    '    return 301 https://$host$request_uri;',
    '}',
    'server {',
    '    listen 443 ssl;',
    '    server_name app.example.org;',
    '    ssl_certificate /etc/letsencrypt/live/app.example.org/fullchain.pem;',
    '    ssl_certificate_key /etc/letsencrypt/live/app.example.org/privkey.pem;',
    '    root /srv/ask-user-app;',
    // nginx drops the server's add_header lines in a location that has its own, so each location repeats them.
    ...add('    '),
    '    # The sample configs are not part of the app.',
    '    location ~ ^/ask-user-app\\.(caddy|nginx\\.conf)$ { return 404; }',
    '    # A new release must reach the phone: the page and the service worker are always revalidated.',
    '    location ~ ^/(index\\.html|sw\\.js)?$ {',
    ...add('        '),
    '        add_header Cache-Control "no-cache" always;',
    '        try_files $uri /index.html;',
    '    }',
    '    # Asset names carry a content hash: they never change under the same name.',
    '    location /assets/ {',
    ...add('        '),
    '        add_header Cache-Control "public, max-age=31536000, immutable" always;',
    '    }',
    '}',
    '',
  ].join('\n')
  return { caddy, nginx }
}
