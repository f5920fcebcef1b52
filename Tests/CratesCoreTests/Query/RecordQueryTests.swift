import CratesCore
import Foundation
import Testing

@Suite("RecordQuery: the query language as a value")
struct RecordQueryTests {
    private func tests(_ text: String) throws -> [RecordQuery.Test] {
        try RecordQuery(parsing: text).terms.map(\.test)
    }

    private func refusal(_ text: String) -> RecordQueryError? {
        do {
            _ = try RecordQuery(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    @Test("every text field, any case, with its value; an empty value asks for the field at all")
    func textFields() throws {
        #expect(try tests("artist:queen TITLE:opera label:emi catno:EMTC genre:rock style:prog country:UK") == [
            .text(.artist, "queen"), .text(.title, "opera"), .text(.label, "emi"), .text(.catno, "EMTC"),
            .text(.genre, "rock"), .text(.style, "prog"), .text(.country, "UK"),
        ])
        #expect(try tests("artist: format: place: lent: paid: wanted: media: rating: year:") == [
            .text(.artist, nil), .format(nil), .place(nil), .lent(nil), .paid(nil), .wanted(nil), .media(nil), .rating(nil), .year(nil),
        ])
        #expect(try tests("format:LP format:7\" lent:anna wanted:rumours") == [.format("lp"), .format("7\""), .lent("anna"), .wanted("rumours")])
    }

    @Test("bare words: text, or a year or format word as the filter always read them; bare years join")
    func bareWords() throws {
        #expect(try tests("vinyl 1977 fleetwood") == [.format("vinyl"), .year(QueryRange(1977)), .word("fleetwood")])
        #expect(try tests("1975 rumours 1979") == [.year(QueryRange(lower: 1975, upper: 1979)), .word("rumours")])
        #expect(try tests("1975-1979") == [.year(QueryRange(lower: 1975, upper: 1979))])
        // Quoted: the number is text (a catalogue number), not a year.
        #expect(try tests("\"1977\" \"the the\"") == [.word("1977"), .word("the the")])
        #expect(try RecordQuery(parsing: "queen 1977 -live").indexWords == ["queen"])
    }

    @Test("ranges: both ends, either end, one value; years, stars, grades, prices")
    func ranges() throws {
        #expect(try tests("year:1970..1979 year:1970.. year:..1979 year:1977") == [
            .year(QueryRange(lower: 1970, upper: 1979)), .year(QueryRange(lower: 1970, upper: nil)),
            .year(QueryRange(lower: nil, upper: 1979)), .year(QueryRange(1977)),
        ])
        #expect(try tests("rating:4.. rating:2..3") == [.rating(QueryRange(lower: 4, upper: nil)), .rating(QueryRange(lower: 2, upper: 3))])
        #expect(try tests("media:VG+.. sleeve:g..vg") == [
            .media(QueryRange(lower: GradeRank(.veryGoodPlus), upper: nil)),
            .sleeve(QueryRange(lower: GradeRank(.good), upper: GradeRank(.veryGood))),
        ])
        #expect(GradeRank(.mint) > GradeRank(.nearMint) && GradeRank(.fair) > GradeRank(.poor))
        #expect(try tests("paid:10.. paid:..20GBP paid:12.50eur") == [
            .paid(PriceRange(amounts: QueryRange(lower: 10, upper: nil))),
            .paid(PriceRange(amounts: QueryRange(lower: nil, upper: 20), currency: "GBP")),
            .paid(PriceRange(amounts: QueryRange(Decimal(string: "12.50")!), currency: "EUR")),
        ])
        #expect(try tests("state:matched,notfound") == [.state([.matched, .notFound])])
    }

    @Test("added: months, days, years and ages, as moments from and before")
    func added() throws {
        let now = try #require(ISO8601DateFormatter().date(from: "2026-11-25T12:00:00Z"))
        let day = { (text: String) in ISO8601DateFormatter().date(from: text + "T00:00:00Z") }
        guard case .added(let month) = try tests("added:2026-11")[0] else { throw Failure("not added") }
        #expect(month.interval(now: now).from == day("2026-11-01") && month.interval(now: now).before == day("2026-12-01"))
        guard case .added(let span) = try tests("added:2026..2026-02-28")[0] else { throw Failure("not added") }
        #expect(span.interval(now: now).from == day("2026-01-01") && span.interval(now: now).before == day("2026-03-01"))
        guard case .added(let recent) = try tests("added:..30d")[0] else { throw Failure("not added") }
        #expect(recent.interval(now: now).from == ISO8601DateFormatter().date(from: "2026-10-26T12:00:00Z"))
        #expect(recent.interval(now: now).before == nil)
        guard case .added(let older) = try tests("added:1w..2m")[0] else { throw Failure("not added") }
        #expect(older.interval(now: now).from == ISO8601DateFormatter().date(from: "2026-09-25T12:00:00Z"))
        #expect(older.interval(now: now).before == ISO8601DateFormatter().date(from: "2026-11-18T12:00:00Z"))
    }

    @Test("negation and quoting: -term, quoted values keep spaces and colons, 7\" is inches")
    func negationAndQuoting() throws {
        let query = try RecordQuery(parsing: "-lent: place:\"Crate A1\" -\"live at\" \"a:b\" - -7\"")
        #expect(query.terms.map(\.negated) == [true, false, true, false, false, true])
        #expect(query.terms.map(\.test) == [.lent(nil), .place("Crate A1"), .word("live at"), .word("a:b"), .word("-"), .format("7\"")])
        #expect(query.terms[1].text == "place:\"Crate A1\"")
    }

    @Test("arguments: one that starts with field: is that one term, spaces and all; others are read as text")
    func arguments() throws {
        let query = try RecordQuery(arguments: ["place:Crate A1", "-lent:Anna Smith", "queen -live", "year:1970..1979"])
        #expect(query.terms.map(\.test) == [.place("Crate A1"), .lent("Anna Smith"), .word("queen"), .word("live"), .year(QueryRange(lower: 1970, upper: 1979))])
        #expect(query.terms.map(\.negated) == [false, true, false, true, false])
        #expect(try RecordQuery(arguments: ["place:\"Crate A1\""]).terms.map(\.test) == [.place("Crate A1")])
    }

    @Test("refusals name the term and what its field takes")
    func refusals() {
        let field = refusal("queen artst:queen")
        #expect(field?.term == "artst:queen")
        #expect(field?.kind == .notAField("artst"))
        #expect(field?.description.contains("artist:") == true && field?.description.contains("\"artst:queen\"") == true)
        #expect(refusal("year:1979..1970")?.kind == .wrongWayRound)
        #expect(refusal("year:1979..1970")?.description == "year:1979..1970: the range runs the wrong way round (its first end comes after its second)")
        #expect(refusal("media:NM..VG")?.kind == .wrongWayRound)
        #expect(refusal("added:30d..7d")?.kind == .wrongWayRound)
        #expect(refusal("added:2026-11..2026-01")?.kind == .wrongWayRound)
        #expect(refusal("paid:20..10")?.kind == .wrongWayRound)
        let quote = refusal("queen place:\"Crate A1")
        #expect(quote?.term == "place:\"Crate A1" && quote?.kind == .unclosedQuote)
        for date in ["added:2026-13", "added:2026-02-30", "added:yesterday", "added:", "added:..", "added:2026-01..30d"] {
            #expect(refusal(date)?.kind == .notADate, "\(date)")
        }
        #expect(refusal("added:2026-02-30")?.description.contains("2026-11-20") == true)
        #expect(refusal("paid:10GPB..")?.kind == .unknownCurrency("GPB"))
        #expect(refusal("paid:10GPB..")?.description.contains("GPB is no currency crates knows") == true)
        #expect(refusal("paid:10GBP..20EUR")?.kind == .badValue("paid: give one currency for both ends (10GBP..20GBP)"))
        #expect(refusal("paid:ten")?.description.hasPrefix("paid:ten: paid: takes an amount") == true)
        #expect(refusal("year:seventies")?.description.contains("year: takes a year") == true)
        #expect(refusal("rating:6")?.description.contains("0 to 5") == true)
        #expect(refusal("media:great")?.description.contains("M, NM, VG+") == true)
        #expect(refusal("state:lost")?.description.contains("pending") == true)
        #expect(refusal("year:..")?.description.contains("year: takes") == true)
    }

    @Test("a price as crates writes it, at least two decimals")
    func moneyText() {
        #expect(MoneyAmount.text(12.5) == "12.50")
        #expect(MoneyAmount.text(3) == "3.00")
        #expect(MoneyAmount.parse("12.50") == Decimal(string: "12.5"))
        #expect(MoneyAmount.parse(".5") == nil && MoneyAmount.parse("1e3") == nil && MoneyAmount.parse("-2") == nil)
        #expect(CurrencyCode.parse("gbp") == "GBP" && CurrencyCode.parse("GPB") == nil)
    }

    private struct Failure: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}
