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
 * The one rule for where agent text may point: an absolute `http:` or `https:` URL, nothing else. The
 * protocol comes from the WHATWG URL parser (`new URL`), never from a prefix check, so entity, tab and
 * case tricks (`java&#9;script:`, ` JAVASCRIPT:`) cannot pass; URLs with a user name or password are
 * refused too (they make a link read as another host). Returns the parser's serialization (host in
 * punycode), or undefined when the URL may not be opened.
 */
export function safeLinkUrl(raw: string): string | undefined {
  let url: ParsedUrl
  try {
    url = new WhatwgUrl(raw)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (url.username !== '' || url.password !== '') return undefined
  if (url.hostname === '') return undefined
  return url.href
}

/** The host of a URL {@link safeLinkUrl} accepted, as the person should read it: punycode, with port. */
export function linkHost(url: string): string {
  try {
    return new WhatwgUrl(url).host
  } catch {
    return ''
  }
}
