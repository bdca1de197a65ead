// Placeholder: built in its own issue.
export default function Page() {
  return <main id="main"><h1>disclaimer</h1></main>;
}
