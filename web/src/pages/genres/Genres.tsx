export function Component() {
  return (
    <div className="page">
      <h1>Genres</h1>
    </div>
  );
}
