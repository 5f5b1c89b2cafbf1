/** Dashboard sessions (migration 017): a row per signed-in browser until logout or expiry. Times are ISO strings. */
export interface SessionsTables {
  sessions: { id: string; user_id: string; created_at: string; expires_at: string };
}
