/** The members of a WHATWG URL the gate reads. */
interface ParsedUrl {
  readonly href: string
  readonly protocol: string
  readonly username: string
  readonly password: string
  readonly hostname: string
  readonly host: string
}

// shared/ compiles with neither DOM nor Node types, yet every place it runs (Node, Electron, the
// browser) has the WHATWG URL parser: typed here by the little the gate needs (not untrusted data).
const WhatwgUrl = (globalThis as unknown as { URL: new (url: string) => ParsedUrl }).URL

/**
 * A URL as a person should read it before anything opens or fetches it: what the WHATWG URL parser
 * (the one browsers and Node use to decide where a request goes) makes of the text, not what the text
 * looks like. `host` is the real host in punycode (a Cyrillic look-alike reads `xn--…`), with its port;
 * `userName` is set when the URL carries a user name or password (`https://github.com@evil.example/`
 * goes to evil.example); `web` is true for `http:` and `https:` only.
 */
export type UrlView =
  | {
      readonly parsed: true
      readonly href: string
      readonly scheme: string
      readonly host: string
      readonly userName?: string
      readonly web: boolean
    }
  | { readonly parsed: false }

/** The one reading of a URL for links and approvals (see {@link UrlView}). Never throws. */
export function inspectUrl(raw: string): UrlView {
  let url: ParsedUrl
  try {
    url = new WhatwgUrl(raw)
  } catch {
    return { parsed: false }
  }
  const scheme = url.protocol.replace(/:$/, '')
  const web = scheme === 'http' || scheme === 'https'
  const hasUser = url.username !== '' || url.password !== ''
  // A user name is shown decoded (it is what the person saw in the text); an empty one with a password still counts.
  const userName = hasUser ? decodeUserName(url.username) : undefined
  return { parsed: true, href: url.href, scheme, host: url.host, web, ...(userName !== undefined ? { userName } : {}) }
}

function decodeUserName(encoded: string): string {
  try {
    return decodeURIComponent(encoded)
  } catch {
    return encoded
  }
}

/**
 * The one rule for where agent text may point: an absolute `http:` or `https:` URL, nothing else. The
 * protocol comes from the WHATWG URL parser (`new URL`), never from a prefix check, so entity, tab and
 * case tricks (`java&#9;script:`, ` JAVASCRIPT:`) cannot pass; URLs with a user name or password are
 * refused too (they make a link read as another host). Returns the parser's serialization (host in
 * punycode), or undefined when the URL may not be opened.
 */
export function safeLinkUrl(raw: string): string | undefined {
  const view = inspectUrl(raw)
  if (!view.parsed || !view.web || view.userName !== undefined || view.host === '') return undefined
  return view.href
}

/** The host of a URL, as the person should read it: punycode, with port ('' when it has none or does not parse). */
export function linkHost(url: string): string {
  const view = inspectUrl(url)
  return view.parsed ? view.host : ''
}

/**
 * What a person must know about a URL before allowing a fetch of it, by stable code:
 * `URL_USER_NAME` (it carries a user name or password, the trick that makes `https://github.com@evil.example`
 * read as github.com), `URL_NOT_WEB` (not http or https), `URL_UNREADABLE` (the parser refuses it, so
 * no host can be shown). Empty for an ordinary web URL.
 */
export type UrlWarning =
  | { readonly code: 'URL_USER_NAME'; readonly userName: string; readonly host: string }
  | { readonly code: 'URL_NOT_WEB'; readonly scheme: string }
  | { readonly code: 'URL_UNREADABLE' }

/** The warnings of {@link UrlWarning} for one URL view. */
export function urlWarnings(view: UrlView): UrlWarning[] {
  if (!view.parsed) return [{ code: 'URL_UNREADABLE' }]
  const out: UrlWarning[] = []
  if (view.userName !== undefined) out.push({ code: 'URL_USER_NAME', userName: view.userName, host: view.host })
  if (!view.web) out.push({ code: 'URL_NOT_WEB', scheme: view.scheme })
  return out
}
