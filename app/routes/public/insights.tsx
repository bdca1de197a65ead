// Placeholder: built in its own issue.
export default function Page() {
  return <main id="main"><h1>insights</h1></main>;
}
