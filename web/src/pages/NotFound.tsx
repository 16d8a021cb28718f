import { Link } from 'react-router';

export function Component() {
  return (
    <div className="page narrow">
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/market">Go to the market</Link>.
      </p>
    </div>
  );
}
