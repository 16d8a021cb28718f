export function Component() {
  return (
    <div className="page">
      <h1>SdkHome</h1>
    </div>
  );
}
