// Placeholder: built in its own issue.
export default function Page() {
  return <main id="main"><h1>dashboard</h1></main>;
}
