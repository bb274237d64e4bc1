// Stands in for Node's `crypto` in the phone build: @hpke/core imports it only where a runtime has no
// global WebCrypto, which no browser of the app's baseline lacks (the shell refuses those first).
export const webcrypto = undefined
