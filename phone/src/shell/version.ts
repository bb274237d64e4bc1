/** This build's version, as the person sees it (vite.phone.config.mts writes it in). */
export const APP_VERSION: string = __APP_VERSION__
