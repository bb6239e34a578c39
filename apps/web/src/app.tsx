/** Placeholder shell until the web app issue lands: links to what the server already offers. */
export function App() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>悦录 · 免费在线录音转文字</h1>
      <p>Yuelu — free online recording-to-text.</p>
      <p>
        <a href="/account/login?redir=/">登录 / Sign in</a> · <a href="/voice_yuelu/docs">API</a>
      </p>
    </main>
  );
}
