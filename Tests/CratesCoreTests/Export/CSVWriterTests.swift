import CratesCore
import CratesTestSupport
import Testing

/// RFC 4180 §2 quoting, checked field by field and by reading back with an independent reader.
@Suite("CSV writer (RFC 4180)")
struct CSVWriterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let written: String
        var testDescription: String { String(reflecting: text) }
    }

    static let cases: [Case] = [
        Case(text: "", written: ""),
        Case(text: "Stockholm", written: "Stockholm"),
        Case(text: "CD, Album", written: "\"CD, Album\""),
        Case(text: "12\" Single", written: "\"12\"\" Single\""),
        Case(text: "\"", written: "\"\"\"\""),
        Case(text: "line one\nline two", written: "\"line one\nline two\""),
        Case(text: "line one\r\nline two", written: "\"line one\r\nline two\""),
        Case(text: "carriage\rreturn", written: "\"carriage\rreturn\""),
        Case(text: " leading", written: "\" leading\""),
        Case(text: "trailing\t", written: "\"trailing\t\""),
        Case(text: "in side", written: "in side"),
        Case(text: "- oto - 4", written: "- oto - 4"),
        Case(text: "Björk — 坂本龍一 🎶", written: "Björk — 坂本龍一 🎶"),
        // A quote followed by a combining mark is one Character but still a quote in CSV.
        Case(text: "a\"\u{301}b", written: "\"a\"\"\u{301}b\""),
        Case(text: "=SUM(A1)", written: "=SUM(A1)"),
    ]

    @Test("a field is quoted exactly when it must be, quotes doubled", arguments: cases)
    func field(_ c: Case) {
        #expect(CSVWriter.field(c.text) == c.written)
    }

    @Test("a record joins fields with commas and ends with the chosen line ending")
    func record() {
        let fields = ["a", "b, c", "", "d\"e"]
        #expect(CSVWriter().record(fields) == "a,\"b, c\",,\"d\"\"e\"\n")
        #expect(CSVWriter(lineEnding: .crlf).record(fields) == "a,\"b, c\",,\"d\"\"e\"\r\n")
        #expect(CSVWriter().record([]) == "\n")
    }

    @Test("what is written reads back intact, with either line ending", arguments: CSVWriter.LineEnding.allCases)
    func roundTrip(_ ending: CSVWriter.LineEnding) {
        var generator = SeededGenerator(seed: 0xC5F)
        let alphabet: [Character] = ["a", "Z", "0", ",", "\"", "\n", "\r", "\r\n", " ", "\t", "é", "坂", "🎶", ";"]
        let writer = CSVWriter(lineEnding: ending)
        var rows: [[String]] = []
        var text = ""
        for _ in 0..<300 {
            let row = (0..<Int(generator.next() % 5 + 1)).map { _ in
                String((0..<Int(generator.next() % 8)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            }
            rows.append(row)
            text += writer.record(row)
        }
        #expect(ReferenceCSVReader.rows(text) == rows)
    }
}

/// A CSV reader written from RFC 4180's grammar (§2, ABNF), apart from the writer: records
/// end at CRLF or LF outside quotes; a quoted field ends at a quote not followed by another.
enum ReferenceCSVReader {
    static func rows(_ text: String) -> [[String]] {
        let scalars = Array(text.unicodeScalars)
        var rows: [[String]] = []
        var row: [String] = []
        var field = String.UnicodeScalarView()
        var index = 0
        var quoted = false
        while index < scalars.count {
            let s = scalars[index]
            if quoted {
                if s == "\"" {
                    if index + 1 < scalars.count, scalars[index + 1] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(s)
                }
            } else if s == "\"" {
                quoted = true
            } else if s == "," {
                row.append(String(field))
                field = String.UnicodeScalarView()
            } else if s == "\n" || s == "\r" {
                if s == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" { index += 1 }
                row.append(String(field))
                field = String.UnicodeScalarView()
                rows.append(row)
                row = []
            } else {
                field.append(s)
            }
            index += 1
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(String(field))
            rows.append(row)
        }
        return rows
    }
}
