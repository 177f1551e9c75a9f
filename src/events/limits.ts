/** The events API's page sizes. */
export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;
