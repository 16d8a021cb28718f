export function Component() {
  return (
    <div className="page">
      <h1>DevLens</h1>
    </div>
  );
}
