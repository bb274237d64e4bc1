// relay/renewal's public surface: what the companion renews at every start, for the core, the CLI and
// (next) the bridge's device connection.
export { RelayRenewalError, type RelayRenewalCode } from './errors'
export {
  renewRelayAtStart,
  DEVICE_CREDENTIAL_WARN_BEFORE_MS,
  type RelayStartResult,
  type RelayStartOptions,
} from './start'
export {
  renewDeviceCredentials,
  credentialKey,
  DEVICE_CREDENTIAL_SECONDS,
  DEVICE_RENEW_BEFORE_MS,
} from './device-credentials'
export { sealDeviceCredential, openDeviceCredential } from './credential-envelope'
export { connectDevice, type DeviceConnection } from './device-connect'
