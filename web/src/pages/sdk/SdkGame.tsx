export function Component() {
  return (
    <div className="page">
      <h1>SdkGame</h1>
    </div>
  );
}
