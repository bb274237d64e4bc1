/** The message a page posts to a waiting service worker when the person tapped "Update". */
export const ACTIVATE_MESSAGE = 'ask-user/activate'
