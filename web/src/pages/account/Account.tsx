export function Component() {
  return (
    <div className="page">
      <h1>Account</h1>
    </div>
  );
}
