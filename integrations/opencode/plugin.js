// Written by `ask-user setup opencode --hooks`; `--remove --hooks` deletes it. Edits are overwritten.
// Brings opencode's permission requests and questions into the Ask User Companion inbox.
const COMMAND = 'ask-user hook opencode'

export const AskUserCompanion = async ({ client, directory }) => {
  const { spawn } = await import('node:child_process')
  const running = new Map()
  const ask = (event) =>
    new Promise((resolve) => {
      const child = spawn(COMMAND, { shell: true, stdio: ['pipe', 'pipe', 'ignore'] })
      running.set(event.properties.id, child)
      let out = ''
      child.stdout.on('data', (chunk) => (out += chunk))
      child.on('error', () => resolve(undefined))
      child.on('close', () => {
        running.delete(event.properties.id)
        try {
          resolve(out.trim() === '' ? undefined : JSON.parse(out))
        } catch {
          resolve(undefined)
        }
      })
      child.stdin.end(JSON.stringify({ ...event, directory }))
    })
  return {
    event: async ({ event }) => {
      if (
        event.type === 'permission.replied' ||
        event.type === 'question.replied' ||
        event.type === 'question.rejected'
      ) {
        running.get(event.properties.requestID)?.kill('SIGTERM')
        return
      }
      if (event.type !== 'permission.asked' && event.type !== 'question.asked') return
      const reply = await ask(event)
      if (reply === undefined) return
      const requestID = event.properties.id
      try {
        if (event.type === 'permission.asked')
          await client.permission.reply({
            requestID,
            reply: reply.reply,
            ...(reply.message ? { message: reply.message } : {}),
          })
        else await client.question.reply({ requestID, answers: reply.answers })
      } catch {
        // Answered in the terminal meanwhile, or the server went away: opencode's own prompt decides.
      }
    },
  }
}
