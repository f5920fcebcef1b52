import CratesCore
import Testing

/// Empty or absurd input is refused with a message that says what to change, before any
/// request (issue 14: no field at all, a 5,000-character title, control characters, a year
/// of 99999).
@Suite struct ReleaseSearchQueryTests {
    @Test func fieldsAreTrimmedAndSentUnderDiscogsNames() throws {
        let query = try ReleaseSearchQuery(
            artist: "  Björk ", title: "Homogenic", catno: "TPLP 71", label: "One Little Indian",
            year: " 1997 ", country: "UK", format: "Vinyl", text: "trip hop", currentYear: 2026)
        #expect(query.artist == "Björk")
        #expect(query.year == 1997)
        #expect(query.parameters.map(\.name) == ["artist", "release_title", "catno", "label", "year", "country", "format", "q"])
        #expect(query.parameters.map(\.value) == ["Björk", "Homogenic", "TPLP 71", "One Little Indian", "1997", "UK", "Vinyl", "trip hop"])
        #expect(query.fields == ReleaseSearchField.allCases)
    }

    @Test func blankFieldsAreNotGiven() throws {
        let query = try ReleaseSearchQuery(artist: "Kraftwerk", title: "  ", catno: "", label: "\u{A0}")
        #expect(query.fields == [.artist])
        #expect(query.parameters.map(\.name) == ["artist"])
    }

    @Test func noFieldAtAll() {
        #expect(throws: ReleaseSearchError.noField) { try ReleaseSearchQuery() }
        #expect(throws: ReleaseSearchError.noField) { try ReleaseSearchQuery(artist: " ", title: "") }
        #expect(ReleaseSearchError.noField.description.contains("give an artist, a title, a catalogue number"))
    }

    @Test func yearCountryAndFormatAloneOnlyNarrow() {
        let error = ReleaseSearchError.onlyNarrowingFields([.year, .country, .format])
        #expect(throws: error) { try ReleaseSearchQuery(year: "1973", country: "UK", format: "LP", currentYear: 2026) }
        #expect(error.description.hasPrefix("year, country, format only narrow a search"))
        #expect(ReleaseSearchError.onlyNarrowingFields([.country]).description.hasPrefix("country only narrows a search"))
    }

    @Test func aFiveThousandCharacterTitle() {
        let title = String(repeating: "a", count: 5000)
        let error = ReleaseSearchError.tooLong(.title, length: 5000, limit: 200)
        #expect(throws: error) { try ReleaseSearchQuery(title: title) }
        #expect(error.description == "the title is 5000 characters long; a search field takes at most 200")
        // The limit itself is accepted; characters count, not bytes (200 CJK characters).
        #expect(throws: Never.self) { try ReleaseSearchQuery(title: String(repeating: "a", count: 200)) }
        #expect(throws: Never.self) { try ReleaseSearchQuery(title: String(repeating: "龍", count: 200)) }
        #expect(throws: ReleaseSearchError.tooLong(.catno, length: 201, limit: 200)) {
            try ReleaseSearchQuery(catno: String(repeating: "1", count: 201))
        }
    }

    @Test(arguments: [
        ("Abba\u{1B}[31m", "Abba\\u{1B}[31m"),
        ("Ace\tOf Spades", "Ace\\tOf Spades"),
        ("Ace Of Spades\n", "Ace Of Spades\\n"),
        ("Zen\u{200B}Arcade", "Zen\\u{200B}Arcade"),
        ("\u{7}bell", "\\u{7}bell"),
        ("back\\slash\u{0}", "back\\\\slash\\0"),
    ])
    func controlCharactersAreRefusedAndShownAsEscapes(input: String, shown: String) {
        let error = ReleaseSearchError.controlCharacter(.title, shown: shown)
        #expect(throws: error) { try ReleaseSearchQuery(title: input) }
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0.value == 0x200B })
    }

    @Test func aLongInputWithAControlCharacterIsShownCut() throws {
        let input = "\u{1B}" + String(repeating: "x", count: 5000)
        do {
            _ = try ReleaseSearchQuery(artist: input)
            Issue.record("expected a refusal")
        } catch {
            guard case .controlCharacter(.artist, let shown) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(shown.hasPrefix("\\u{1B}xxx") && shown.hasSuffix("…") && shown.count < 60)
        }
    }

    @Test func fieldsWithoutWordsAreRefused() {
        #expect(throws: ReleaseSearchError.noWords(.catno, shown: "---")) { try ReleaseSearchQuery(catno: "---") }
        #expect(throws: ReleaseSearchError.noWords(.artist, shown: "!!!")) { try ReleaseSearchQuery(artist: "!!!", title: "Myth Takes") }
    }

    @Test func yearsOutOfRange() {
        let range = ReleaseSearchError.yearOutOfRange(shown: "99999", earliest: 1877, latest: 2027)
        #expect(throws: range) { try ReleaseSearchQuery(artist: "Can", year: "99999", currentYear: 2026) }
        #expect(range.description == "the year 99999 is out of range: records are from 1877 to 2027")
        #expect(throws: ReleaseSearchError.yearOutOfRange(shown: "1876", earliest: 1877, latest: 2027)) {
            try ReleaseSearchQuery(artist: "Can", year: "1876", currentYear: 2026)
        }
        #expect(throws: ReleaseSearchError.yearOutOfRange(shown: "2028", earliest: 1877, latest: 2027)) {
            try ReleaseSearchQuery(artist: "Can", year: "2028", currentYear: 2026)
        }
        let huge = String(repeating: "9", count: 40)
        #expect(throws: ReleaseSearchError.yearOutOfRange(shown: huge, earliest: 1877, latest: 2027)) {
            try ReleaseSearchQuery(artist: "Can", year: huge, currentYear: 2026)
        }
    }

    @Test func yearsInRange() throws {
        #expect(try ReleaseSearchQuery(artist: "Can", year: "1877", currentYear: 2026).year == 1877)
        #expect(try ReleaseSearchQuery(artist: "Can", year: "2027", currentYear: 2026).year == 2027)
        // Full-width digits, as an IME types them.
        #expect(try ReleaseSearchQuery(artist: "Can", year: "１９７３", currentYear: 2026).year == 1973)
    }

    @Test(arguments: ["19x3", "-1973", "+1973", "1973.0", "'73", "1 973"])
    func yearsThatAreNotNumbers(text: String) {
        #expect(throws: ReleaseSearchError.yearNotANumber(shown: text)) {
            try ReleaseSearchQuery(artist: "Can", year: text, currentYear: 2026)
        }
    }

    @Test func currentYearIsUTC() {
        // 2025-12-31T23:30:00Z
        #expect(ReleaseSearchQuery.currentYear(now: .init(timeIntervalSince1970: 1_767_223_800)) == 2025)
    }
}
