/** Swagger example of `GET /app-users/{userId}/launch`: filled in below from a run of the console's flow. */
export const EXPLAIN_EXAMPLE = {};
