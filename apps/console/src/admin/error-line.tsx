/** An error announced to screen readers, as text (a server message may hold anything). */
export function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p role="alert" className="error">
      {error}
    </p>
  ) : null;
}
