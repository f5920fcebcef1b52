import CratesCore
import Testing

/// A progress line fitted to the terminal: the time left is what is kept.
@Suite struct ProgressTextTests {
    static let parts: [(long: String, short: String)] = [
        ("rate limit: resuming in 57 s", "rate limit: resuming in 57 s"), ("matched 55", "55 ok"), ("ambiguous 0", "0 amb"),
        ("not found 0", "0 nf"), ("failed 0", "0 fail"),
    ]

    @Test func aLineThatFitsIsWhole() {
        let line = ProgressText.fitted(head: "Looking up [##] 55/66", parts: Self.parts, tail: "1 min left", width: 200)
        #expect(line == "Looking up [##] 55/66 · rate limit: resuming in 57 s · matched 55 · ambiguous 0 · not found 0 · failed 0 · 1 min left")
    }

    @Test func tooWideTheLastPartsShortenFirstAndTheTimeLeftStays() {
        let head = "Looking up [################] 55/66"
        let line = ProgressText.fitted(head: head, parts: Self.parts, tail: "1 min left", width: 119)
        #expect(line == head + " · rate limit: resuming in 57 s · matched 55 · 0 amb · 0 nf · 0 fail · 1 min left")
        let narrower = ProgressText.fitted(head: head, parts: Self.parts, tail: "1 min left", width: 100)
        #expect(narrower == head + " · rate limit: resuming in 57 s · 55 ok · 0 amb · 1 min left")
        let narrow = ProgressText.fitted(head: head, parts: Self.parts, tail: "1 min left", width: 80)
        #expect(narrow == head + " · rate limit: resuming in 57 s · 1 min left")
        #expect(narrow.count <= 80)
        let tiny = ProgressText.fitted(head: head, parts: Self.parts, tail: "1 min left", width: 30)
        #expect(tiny.count == 30 && tiny.hasSuffix("…"))
    }
}
