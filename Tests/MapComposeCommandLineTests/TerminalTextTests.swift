import Testing
import MapComposeCommandLine

/// Control characters in messages are shown as escapes, never sent to the terminal.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreEscaped() {
        #expect(TerminalText.escaped("plain text, ünïcödé") == "plain text, ünïcödé")
        #expect(TerminalText.escaped("a\u{1B}[31mb\nc\rd\te\u{7F}\u{9B}\u{0}") == #"a\u{1B}[31mb\nc\rd\te\u{7F}\u{9B}\u{0}"#)
        #expect(TerminalText.escaped("usage\n  \u{1B}x", keepingNewlines: true) == "usage\n  \\u{1B}x")
    }
}
