/** The account e-mail input of the sign-in, registration and forgotten-password forms. */
export function EmailField({ value, onChange }: { value: string; onChange: (email: string) => void }) {
  return (
    <label>
      E-mail
      <input
        type="email"
        name="email"
        autoComplete="email"
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
