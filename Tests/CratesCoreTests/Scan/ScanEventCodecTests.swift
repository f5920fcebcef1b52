import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// The socket protocol's JSON lines: what the daemon writes, and what a reader makes of
/// anything a peer may send.
@Suite("Scan events: JSON line codec", .offThePool)
struct ScanEventCodecTests {
    static let noon = Date(timeIntervalSince1970: 1_795_341_600)  // 2026-11-22T10:00:00Z

    @Test("an event is one line, members in the documented order, newline-terminated")
    func encodesTheDocumentedLine() throws {
        let event = ScanEvent(symbology: .ean13, data: "5099750442227", at: Self.noon)
        #expect(event.jsonLine == #"{"symbology":"EAN-13","data":"5099750442227","at":"2026-11-22T10:00:00Z"}"#)
        let bytes = try event.encodedLine()
        #expect(bytes.last == 0x0A)
        #expect(bytes.filter { $0 == 0x0A }.count == 1)
    }

    @Test("round trip, including quotes, backslashes, control characters and non-ASCII", arguments: [
        "5099750442227",
        "https://www.discogs.com/release/249504-Rick-Astley-Never-Gonna-Give-You-Up",
        "line one\nline two\r\n\ttab \u{1B}[31m red \u{07} \u{7F}",
        #"quote " and backslash \ and slash /"#,
        "Sigur Rós — 日本語 🎵",
    ])
    func roundTrip(data: String) throws {
        let event = ScanEvent(symbology: .qrCode, data: data, at: Self.noon)
        let bytes = try event.encodedLine()
        #expect(!bytes.dropLast().contains(0x0A), "a newline in the data must be escaped")
        #expect(!bytes.contains(0x1B), "no raw ESC on the wire")
        let decoded = try ScanEvent(jsonLine: bytes.dropLast())
        #expect(decoded == event)
    }

    @Test("readers accept fractional seconds, offsets, extra members, a trailing CR")
    func lenientReading() throws {
        let lines = [
            #"{"symbology":"UPC-A","data":"077774620024","at":"2026-11-22T10:00:00.250Z"}"#,
            #"{"at":"2026-11-22T11:00:00+01:00","data":"077774620024","symbology":"UPC-A","source":"phone"}"# + "\r",
        ]
        for line in lines {
            let event = try ScanEvent(jsonLine: Array(line.utf8))
            #expect(event.symbology == .upcA)
            #expect(event.data == "077774620024")
            #expect(abs(event.at.timeIntervalSince(Self.noon)) < 1)
        }
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        let error: ScanLineError
        let mentions: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ error: ScanLineError, _ mentions: String) {
            self.init(name, Array(text.utf8), error, mentions)
        }

        init(_ name: String, _ bytes: [UInt8], _ error: ScanLineError, _ mentions: String) {
            self.name = name
            self.bytes = bytes
            self.error = error
            self.mentions = mentions
        }
    }

    static let valid = #"{"symbology":"EAN-13","data":"5099750442227","at":"2026-11-22T10:00:00Z"}"#

    static let tooLong = #"{"symbology":"QR-Code","data":""# + String(repeating: "x", count: 4100) + #"","at":"2026-11-22T10:00:00Z"}"#

    static let badLines: [Bad] = [
        Bad("empty", "", .notJSON(detail: "read “”"), "not JSON"),
        Bad("zbar's own format", "EAN-13:5099750442227", .notJSON(detail: "read “EAN-13:5099750442227”"), "not JSON"),
        Bad("truncated", String(valid.dropLast(5)), .notJSON(detail: "read “\(valid.dropLast(5).prefix(40))…”"), "not JSON"),
        Bad("invalid UTF-8", Array(valid.utf8.prefix(30)) + [0xC3, 0x28] + Array(valid.utf8.dropFirst(30)), .notUTF8, "UTF-8"),
        Bad("lone continuation byte", [0x80, 0x7B, 0x7D], .notUTF8, "UTF-8"),
        Bad("an array", "[1,2,3]", .notAnObject, "not an object"),
        Bad("a bare string", "\"EAN-13\"", .notAnObject, "not an object"),
        Bad("missing data", #"{"symbology":"EAN-13","at":"2026-11-22T10:00:00Z"}"#, .missingField("data"), "\"data\""),
        Bad("missing symbology", #"{"data":"1","at":"2026-11-22T10:00:00Z"}"#, .missingField("symbology"), "\"symbology\""),
        Bad("null at", #"{"symbology":"EAN-13","data":"1","at":null}"#, .missingField("at"), "\"at\""),
        Bad("number data", #"{"symbology":"EAN-13","data":5099750442227,"at":"2026-11-22T10:00:00Z"}"#,
            .wrongType(field: "data", expected: "a string"), "not a string"),
        Bad("empty symbology", #"{"symbology":"","data":"1","at":"2026-11-22T10:00:00Z"}"#, .emptyField("symbology"), "empty"),
        Bad("bad time", #"{"symbology":"EAN-13","data":"1","at":"yesterday"}"#, .badTimestamp("yesterday"), "RFC 3339"),
        Bad("time without zone", #"{"symbology":"EAN-13","data":"1","at":"2026-11-22 10:00:00"}"#,
            .badTimestamp("2026-11-22 10:00:00"), "RFC 3339"),
        Bad("too long", tooLong, .tooLong(bytes: tooLong.utf8.count), "4096-byte limit"),
    ]

    @Test("bad lines are typed errors with a message, never a crash", arguments: badLines)
    func badLine(_ bad: Bad) {
        #expect(throws: bad.error) { try ScanEvent(jsonLine: bad.bytes) }
        #expect(bad.error.description.contains(bad.mentions), "\(bad.error.description)")
        #expect(bad.error.localizedDescription == bad.error.description)
    }

    @Test("a line of exactly 4096 bytes is read; the daemon refuses to send a longer one")
    func limitIsInclusive() throws {
        let overhead = ScanEvent(symbology: .qrCode, data: "", at: Self.noon).jsonLine.utf8.count
        let fits = ScanEvent(symbology: .qrCode, data: String(repeating: "a", count: 4096 - overhead), at: Self.noon)
        let bytes = try fits.encodedLine()
        #expect(bytes.count == 4097)
        #expect(try ScanEvent(jsonLine: bytes.dropLast()) == fits)
        let tooBig = ScanEvent(symbology: .qrCode, data: String(repeating: "a", count: 4097 - overhead), at: Self.noon)
        #expect(throws: ScanLineError.tooLong(bytes: 4097)) { try tooBig.encodedLine() }
    }

    /// Random events, from a seeded generator: what is written reads back as the same event.
    @Test("random events read back as written (seeded)")
    func randomRoundTrip() throws {
        var generator = SeededGenerator(seed: 0x5CA1_AB1E)
        let symbologies: [ScanSymbology] = [.ean13, .ean8, .upcA, .upcE, .isbn10, .isbn13, .qrCode, .code128, ScanSymbology(rawValue: "DataBar")]
        // ASCII, quotes and backslashes, C0 and C1 controls, DEL, non-ASCII, an emoji.
        let scalars: [Unicode.Scalar] = Array("0123456789abcXYZ \"\\/:{}[],-".unicodeScalars)
            + (0..<0x20).compactMap(Unicode.Scalar.init) + ["\u{7F}", "\u{85}", "\u{9B}", "é", "日", "🎵", "\u{2028}"]
        var decodedCount = 0
        for _ in 0..<2_000 {
            let length = Int.random(in: 1..<120, using: &generator)  // the reader refuses empty data
            var data = String.UnicodeScalarView()
            for _ in 0..<length { data.append(scalars.randomElement(using: &generator) ?? "0") }
            // Whole seconds: the line carries RFC 3339 seconds.
            let at = Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800, using: &generator)))
            let event = ScanEvent(symbology: symbologies.randomElement(using: &generator) ?? .ean13, data: String(data), at: at)
            let bytes = try event.encodedLine()
            #expect(bytes.last == 0x0A && !bytes.dropLast().contains(0x0A), "one line: \(event)")
            #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A }, "no raw control byte on the wire: \(event)")
            let decoded = try ScanEvent(jsonLine: bytes.dropLast())
            #expect(decoded == event)
            decodedCount += 1
        }
        #expect(decodedCount == 2_000)
    }

    /// Random bytes and damaged lines (seeded): the reader never crashes, and every line is
    /// either an event that writes back to an equal event, or a typed error with a message
    /// that is safe on a terminal.
    @Test("random bytes and damaged lines: an event or a typed, printable error, never a crash (seeded)")
    func fuzz() {
        var generator = SeededGenerator(seed: 0xF022_5EED)
        let alphabet = Array(#"{}[]":,\ "symbologydataat0123456789-TZ.nul"#.utf8) + [0x00, 0x0D, 0xC3, 0xFF, 0x80]
        let valid = Array(Self.valid.utf8)
        var events = 0
        var errors = 0
        for round in 0..<4_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0..<80, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? 0 }
            } else {
                // A valid line with one to three bytes changed, inserted or removed.
                bytes = valid
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let position = Int.random(in: 0..<bytes.count, using: &generator)
                    let byte = alphabet.randomElement(using: &generator) ?? 0
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[position] = byte
                    case 1: bytes.insert(byte, at: position)
                    default: bytes.remove(at: position)
                    }
                }
            }
            do {
                let event = try ScanEvent(jsonLine: bytes)
                events += 1
                #expect(!event.symbology.rawValue.isEmpty, "\(bytes)")
                if let again = try? event.encodedLine() {
                    #expect((try? ScanEvent(jsonLine: again.dropLast())) == event, "\(bytes)")
                }
            } catch {
                errors += 1
                let message = error.description
                #expect(!message.isEmpty)
                #expect(message.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }, "\(message)")
            }
        }
        #expect(events + errors == 4_000)
        // Both kinds came up: the damaged lines reach the reader's deeper checks.
        #expect(events > 0 && errors > 0, "events \(events), errors \(errors)")
    }
}
