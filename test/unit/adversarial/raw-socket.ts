// Test helper: a WebSocket client written by hand over net.Socket, so tests can send frames no
// well-behaved library would (unmasked, reserved bits, unknown opcodes, invalid UTF-8, floods).
import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'

/** The parts of one frame; `mask` defaults to true (clients must mask). */
export interface FrameParts {
  fin?: boolean
  rsv?: number
  opcode: number
  payload?: Buffer | string
  mask?: boolean
}

/** Encodes one WebSocket frame (RFC 6455 §5.2). */
export function encodeFrame({
  fin = true,
  rsv = 0,
  opcode,
  payload = Buffer.alloc(0),
  mask = true,
}: FrameParts): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload
  const length = data.length
  const head = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10)
  head[0] = (fin ? 0x80 : 0) | ((rsv & 7) << 4) | (opcode & 0x0f)
  const maskBit = mask ? 0x80 : 0
  if (length < 126) head[1] = maskBit | length
  else if (length < 65536) {
    head[1] = maskBit | 126
    head.writeUInt16BE(length, 2)
  } else {
    head[1] = maskBit | 127
    head.writeBigUInt64BE(BigInt(length), 2)
  }
  if (!mask) return Buffer.concat([head, data])
  const key = randomBytes(4)
  const masked = Buffer.alloc(length)
  for (let i = 0; i < length; i++) masked[i] = (data[i] ?? 0) ^ (key[i % 4] ?? 0)
  return Buffer.concat([head, key, masked])
}

/** A raw, upgraded connection. */
export interface RawSocket {
  socket: Socket
  /** Writes bytes as they are. */
  write(bytes: Buffer): void
  /** Sends one masked text frame. */
  text(text: string): void
  /** Resolves with the first text frame's payload the companion sends (unmasked, unfragmented). */
  nextText(): Promise<string>
  /** Resolves with the companion's close frame code (or 1006 when the TCP connection ended without one). */
  closeCode: Promise<number>
}

/**
 * Opens 127.0.0.1:`port` + `path` with a hand-written upgrade request and resolves once the 101 has
 * arrived. Rejects with the status line when the upgrade is refused.
 */
export function openRaw(port: number, path: string, headers: Record<string, string>): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let buffer = Buffer.alloc(0)
    let upgraded = false
    let closeCode: ((code: number) => void) | undefined
    const closed = new Promise<number>((done) => (closeCode = done))
    const texts: string[] = []
    const waiters: ((text: string) => void)[] = []
    const parse = (): void => {
      for (;;) {
        if (buffer.length < 2) return
        const opcode = (buffer[0] ?? 0) & 0x0f
        let length = (buffer[1] ?? 0) & 0x7f
        let offset = 2
        if (length === 126) {
          if (buffer.length < 4) return
          length = buffer.readUInt16BE(2)
          offset = 4
        } else if (length === 127) {
          if (buffer.length < 10) return
          length = Number(buffer.readBigUInt64BE(2))
          offset = 10
        }
        if (buffer.length < offset + length) return
        const payload = buffer.subarray(offset, offset + length)
        buffer = buffer.subarray(offset + length)
        if (opcode === 0x8) closeCode?.(payload.length >= 2 ? payload.readUInt16BE(0) : 1005)
        if (opcode === 0x1) {
          const waiter = waiters.shift()
          if (waiter) waiter(payload.toString('utf8'))
          else texts.push(payload.toString('utf8'))
        }
      }
    }
    socket.on('error', () => undefined)
    socket.on('close', () => {
      closeCode?.(1006)
      if (!upgraded)
        reject(new Error(`connection closed before the upgrade: ${buffer.toString('latin1').split('\r\n')[0] ?? ''}`))
    })
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end === -1) return
        const status = buffer.subarray(0, buffer.indexOf('\r\n')).toString('latin1')
        if (!status.startsWith('HTTP/1.1 101')) {
          socket.destroy()
          return reject(new Error(status))
        }
        upgraded = true
        buffer = buffer.subarray(end + 4)
        resolve({
          socket,
          write: (bytes) => void socket.write(bytes),
          text: (text) => void socket.write(encodeFrame({ opcode: 0x1, payload: text })),
          nextText: () =>
            new Promise((done) => {
              const queued = texts.shift()
              if (queued !== undefined) done(queued)
              else waiters.push(done)
            }),
          closeCode: closed,
        })
      }
      parse()
    })
    socket.once('connect', () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ]
      socket.write(`${lines.join('\r\n')}\r\n\r\n`)
    })
  })
}
