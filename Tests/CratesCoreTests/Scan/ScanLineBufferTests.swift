import CratesCore
import Testing

@Suite("Scan events: line splitting with a bound")
struct ScanLineBufferTests {
    @Test("lines split across chunks, several in one chunk, the last without newline at finish")
    func splitsLines() {
        var buffer = ScanLineBuffer(maximumLength: 16)
        #expect(buffer.append(Array("abc".utf8)) == [])
        #expect(buffer.append(Array("def\nghi\n\njk".utf8)) == [.line(Array("abcdef".utf8)), .line(Array("ghi".utf8)), .line([])])
        #expect(buffer.finish() == [.line(Array("jk".utf8))])
        #expect(buffer.finish() == [])
    }

    @Test("an overlong line is reported once and skipped to its newline; the next line is read")
    func overlongLine() {
        var buffer = ScanLineBuffer(maximumLength: 8)
        #expect(buffer.append(Array("12345678".utf8)) == [])
        #expect(buffer.append(Array("9".utf8)) == [.tooLong(bytes: 9)])
        // However much more comes, nothing is kept and nothing more is reported.
        for _ in 0..<100 { #expect(buffer.append(Array(repeating: UInt8(ascii: "x"), count: 1000)) == []) }
        #expect(buffer.append(Array("tail\nok\n".utf8)) == [.line(Array("ok".utf8))])
        #expect(buffer.finish() == [])
    }

    @Test("a line of exactly the limit is kept")
    func exactLimit() {
        var buffer = ScanLineBuffer(maximumLength: 4)
        #expect(buffer.append(Array("abcd\n".utf8)) == [.line(Array("abcd".utf8))])
    }

    @Test("an overlong line cut off by end of input is not returned as a line")
    func overlongAtEnd() {
        var buffer = ScanLineBuffer(maximumLength: 2)
        #expect(buffer.append(Array("abc".utf8)) == [.tooLong(bytes: 3)])
        #expect(buffer.finish() == [])
    }
}
