export function Component() {
  return (
    <div className="page">
      <h1>Breakout</h1>
    </div>
  );
}
