// Placeholder: built in its own issue.
export default function Page() {
  return <main id="main"><h1>lawyer-edit</h1></main>;
}
