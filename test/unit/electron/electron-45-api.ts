// What Electron really has, read from its own type declarations (node_modules/electron/electron.d.ts,
// the 45.5.0 typings) with the TypeScript parser: for each class and interface of the `Electron`
// namespace, its instance and static members, which of them are read-only or documented for some
// platforms only, and the event names its `on()` overloads accept. The strict fake
// (strict-electron.ts) checks every access against this catalog, so it cannot drift from the typings.
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import ts from 'typescript'

/** One member of an Electron class or interface. */
export interface ApiMember {
  readonly: boolean
  /** The platforms its docs name (`@platform darwin,win32`); undefined: every platform. */
  platforms?: readonly NodeJS.Platform[]
}

/** The instance side or the static side of one Electron class or interface. */
export interface ApiShape {
  /** `BrowserWindow`, or `BrowserWindow (static)` for the static side. */
  label: string
  members: ReadonlyMap<string, ApiMember>
  /** The event names `on()` accepts; undefined when any string is accepted (IPC channels). */
  events: ReadonlySet<string> | undefined
}

/** Electron's API as its typings declare it. */
export interface ElectronCatalog {
  /** The version in the typings' header, e.g. `45.5.0`. */
  version: string
  /** The instance side of a class or interface of the `Electron` namespace; throws for an unknown name. */
  instance(name: string): ApiShape
  /** The static side of a class of the `Electron` namespace; throws for an unknown name. */
  statics(name: string): ApiShape
}

type Declaration = ts.ClassDeclaration | ts.InterfaceDeclaration

/** Methods whose first argument is an event name. */
const EVENT_METHODS = new Set(['on', 'once', 'off', 'addListener', 'removeListener'])
/** Every EventEmitter emits these two for its own listeners. */
const EMITTER_EVENTS = ['newListener', 'removeListener']
const publicNames = (target: object): string[] =>
  Object.getOwnPropertyNames(target).filter((name) => !name.startsWith('_'))
const OBJECT_MEMBERS = publicNames(Object.prototype)
const FUNCTION_MEMBERS = ['prototype', ...publicNames(Function.prototype), ...OBJECT_MEMBERS]

let cached: ElectronCatalog | undefined

/** The catalog of the installed `electron` package's typings (parsed once per test worker). */
export function electronCatalog(): ElectronCatalog {
  cached ??= parseCatalog(readFileSync(createRequire(import.meta.url).resolve('electron/electron.d.ts'), 'utf8'))
  return cached
}

/** Builds the catalog from the text of an `electron.d.ts`. */
export function parseCatalog(text: string): ElectronCatalog {
  const version = /Type definitions for Electron (\S+)/.exec(text)?.[1] ?? 'unknown'
  const file = ts.createSourceFile('electron.d.ts', text, ts.ScriptTarget.Latest, true)
  const declarations = new Map<string, Declaration[]>()
  for (const statement of namespaceBody(file)) {
    if ((ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) && statement.name) {
      const list = declarations.get(statement.name.text) ?? []
      list.push(statement)
      declarations.set(statement.name.text, list)
    }
  }
  const shapes = new Map<string, ApiShape>()
  const shape = (name: string, side: 'instance' | 'static'): ApiShape => {
    const key = `${side}:${name}`
    const known = shapes.get(key)
    if (known) return known
    const found = declarations.get(name)
    if (!found) throw new Error(`fake electron: Electron ${version} has no class or interface ${name}`)
    const built = buildShape(name, side, found, shape)
    shapes.set(key, built)
    return built
  }
  return { version, instance: (name) => shape(name, 'instance'), statics: (name) => shape(name, 'static') }
}

function namespaceBody(file: ts.SourceFile): readonly ts.Statement[] {
  for (const statement of file.statements) {
    if (
      ts.isModuleDeclaration(statement) &&
      statement.name.text === 'Electron' &&
      statement.body &&
      ts.isModuleBlock(statement.body)
    ) {
      return statement.body.statements
    }
  }
  throw new Error('fake electron: electron.d.ts has no `declare namespace Electron`')
}

function buildShape(
  name: string,
  side: 'instance' | 'static',
  declarations: readonly Declaration[],
  shape: (name: string, side: 'instance' | 'static') => ApiShape,
): ApiShape {
  const members = new Map<string, ApiMember>()
  const events = new Set<string>()
  let anyEvent = false
  const add = (member: string, next: ApiMember): void => {
    const previous = members.get(member)
    // Overloads and redeclarations: the member exists wherever any of them does.
    const platforms = !previous
      ? next.platforms
      : previous.platforms && next.platforms
        ? [...new Set([...previous.platforms, ...next.platforms])]
        : undefined
    members.set(member, {
      readonly: (previous?.readonly ?? true) && next.readonly,
      ...(platforms ? { platforms } : {}),
    })
  }
  for (const builtIn of side === 'static' ? FUNCTION_MEMBERS : OBJECT_MEMBERS) add(builtIn, { readonly: false })

  for (const declaration of declarations) {
    for (const base of baseNames(declaration)) {
      if (base === 'NodeEventEmitter' || base === 'NodeJS.EventEmitter') {
        const emitter =
          side === 'static'
            ? ts.isClassDeclaration(declaration)
              ? publicNames(EventEmitter)
              : []
            : publicNames(EventEmitter.prototype)
        for (const member of emitter) add(member, { readonly: false })
        if (side === 'instance') for (const event of EMITTER_EVENTS) events.add(event)
        continue
      }
      const inherited = shape(base.replace(/^Electron\./, ''), side)
      for (const [member, info] of inherited.members) add(member, info)
      if (inherited.events) for (const event of inherited.events) events.add(event)
      else anyEvent = true
    }
    for (const member of declaration.members) {
      const memberName = nameOf(member)
      if (memberName === undefined || isStatic(member) !== (side === 'static')) continue
      add(memberName, { readonly: isReadonly(member), ...platformsOf(member) })
      if (
        side === 'instance' &&
        EVENT_METHODS.has(memberName) &&
        (ts.isMethodDeclaration(member) || ts.isMethodSignature(member))
      ) {
        const event = eventName(member)
        if (event === undefined) anyEvent = true
        else events.add(event)
      }
    }
  }
  return { label: side === 'static' ? `${name} (static)` : name, members, events: anyEvent ? undefined : events }
}

function baseNames(declaration: Declaration): string[] {
  return (declaration.heritageClauses ?? [])
    .filter((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword)
    .flatMap((clause) => clause.types.map((type) => entityText(type.expression)))
}

function entityText(expression: ts.Expression): string {
  if (ts.isIdentifier(expression)) return expression.text
  if (ts.isPropertyAccessExpression(expression)) return `${entityText(expression.expression)}.${expression.name.text}`
  return ''
}

function nameOf(member: ts.ClassElement | ts.TypeElement): string | undefined {
  if (ts.isConstructorDeclaration(member) || !member.name) return undefined
  if (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) return member.name.text
  return undefined
}

function isStatic(member: ts.ClassElement | ts.TypeElement): boolean {
  return (
    ts.canHaveModifiers(member) && (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword)
  )
}

function isReadonly(member: ts.ClassElement | ts.TypeElement): boolean {
  if (!ts.isPropertyDeclaration(member) && !ts.isPropertySignature(member)) return true // methods are not assigned
  return (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword)
}

function platformsOf(member: ts.Node): Pick<ApiMember, 'platforms'> {
  const tag = ts.getJSDocTags(member).find((t) => t.tagName.text === 'platform')
  const text = typeof tag?.comment === 'string' ? tag.comment : undefined
  return text ? { platforms: text.split(',').map((p) => p.trim() as NodeJS.Platform) } : {}
}

/** The literal event name of one `on('name', listener)` overload; undefined for `on(channel: string, ...)`. */
function eventName(method: ts.MethodDeclaration | ts.MethodSignature): string | undefined {
  const type = method.parameters[0]?.type
  return type && ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal) ? type.literal.text : undefined
}
