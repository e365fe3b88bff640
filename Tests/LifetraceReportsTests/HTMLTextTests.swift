import LifetraceReports
import Testing

@Suite struct HTMLTextTests {
    @Test func escapesMarkupAndQuotes() {
        #expect(HTMLText.escape("<script>alert(\"x\")</script>") == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
        #expect(HTMLText.escape("a & 'b'") == "a &amp; &#39;b&#39;")
    }

    @Test func leavesPlainTextAlone() {
        #expect(HTMLText.escape("didFinishLaunching µs") == "didFinishLaunching µs")
    }
}
