// The one file `relay add-agent` writes for an agent: its schema lives with the agent side that reads it
// (agent/relay-file.ts), since the client library cannot import the CLI.
export { AgentRelayFileSchema, type AgentRelayFile } from '../../agent/relay-file'
