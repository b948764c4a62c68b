/**
 * The page cache's errors come from the project's one catalogue, so that every error mapper answers them like any
 * other. It is the package's one import from outside itself, kept in this file so that making the page cache a
 * package of its own changes this file only.
 */
export { ERRORS } from '../error-codes.js';
export { errorBody, type AppError } from '../errors.js';
