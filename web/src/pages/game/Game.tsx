export function Component() {
  return (
    <div className="page">
      <h1>Game</h1>
    </div>
  );
}
