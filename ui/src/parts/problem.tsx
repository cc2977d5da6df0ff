/** A refused request, as the service worded it. */
export function Problem({ error }: { error: { message: string; code?: string } | null }) {
  if (error === null) return null;
  return (
    <p role="alert" class="error">
      {error.code !== undefined && <code>{error.code}</code>} {error.message}
    </p>
  );
}
