/** What went wrong with a comment, in words, announced to screen readers; nothing when all is well. */
export function CommentProblem({ text }: { text: string | undefined }) {
  return text ? (
    <p className="td-error" role="alert">
      {text}
    </p>
  ) : null;
}
