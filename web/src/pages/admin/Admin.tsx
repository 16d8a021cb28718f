export function Component() {
  return (
    <div className="page">
      <h1>Admin</h1>
    </div>
  );
}
