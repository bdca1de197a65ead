// Placeholder: built in its own issue.
export default function Page() {
  return <main id="main"><h1>lawyer-new</h1></main>;
}
