export function Component() {
  return (
    <div className="page">
      <h1>Tracking</h1>
    </div>
  );
}
