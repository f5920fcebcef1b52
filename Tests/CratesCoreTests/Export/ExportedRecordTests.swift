import CratesCore
import Foundation
import Testing

/// The record as `crates list` prints it (a tab-separated line, a JSON object) and as
/// `crates export --json` writes it.
@Suite("Exported record: listing line and JSON")
struct ExportedRecordTests {
    @Test("listing line: the documented columns in order, one line whatever the values hold")
    func listingLine() {
        let line = ExportSample.matched.listingLine
        #expect(!line.contains("\n"))
        #expect(line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) == [
            "7", "0075678190421", "matched", "Rock", "Crosby, Stills & Nash", "\"Déjà\" Vu, Live",
            "Vinyl, LP, Album + CD, Album", "1970", "Atlantic, Rhino, Inc.", "SD 7200", "249504", "2024-01-31T12:34:56Z", "",
            "Living Room › Crate 3, top",
        ])
        #expect(ExportedRecord.listingColumns.count == 14)
        #expect(ExportSample.unmatched.listingLine
            == "8\t5012345678900\tambiguous\tUnknown\t\t\t\t\t\t\t\t2024-01-31T12:34:56Z\t\t")
    }

    @Test("tab-separated fields never carry control characters", arguments: [
        ("a\tb", "a b"), ("a\r\nb", "a  b"), ("\u{1B}[2Jx", "[2Jx"), ("\u{85}next", "next"), ("plain 坂本", "plain 坂本"),
    ])
    func tabSeparated(_ input: String, _ expected: String) {
        #expect(TabSeparatedText.field(input) == expected)
        var bytes: [UInt8] = []
        TabSeparatedText.append(input, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    /// The listing is written as bytes, cleaned byte by byte: the same as `field`, which
    /// cleans scalar by scalar, for every scalar below U+0100 and around it.
    @Test("a field appended as bytes is cleaned as field() cleans it, every control and its neighbours")
    func appendedAsField() {
        var scalars = (0x00...0x1FF).compactMap(Unicode.Scalar.init)
        scalars += ["\u{2028}", "\u{FEFF}", "坂", "😀", "\u{10FFFF}"]
        for (index, scalar) in scalars.enumerated() {
            let neighbour = scalars[(index * 7 + 3) % scalars.count]
            for text in [String(scalar), "a\(scalar)b", "\(scalar)\(neighbour)\(scalar)", "\(neighbour)\u{C2}\(scalar)"] {
                var bytes: [UInt8] = [UInt8(ascii: "x")]
                TabSeparatedText.append(text, to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == "x" + TabSeparatedText.field(text), "U+\(String(scalar.value, radix: 16))")
            }
        }
    }

    @Test("JSON: every key always there, nulls included, dates in ISO 8601 UTC")
    func jsonShape() throws {
        let object = try decode(ExportSample.unmatched, includeDiscogs: false)
        #expect(Set(object.keys) == [
            "id", "gtin", "state", "section", "addedAt", "addMethod", "note", "location", "lookupAttempts",
            "lookupError", "retryAt", "skipReason", "updatedAt", "candidates", "release", "collector",
            "mediaCondition", "sleeveCondition", "rating", "discogsCollection", "catalogueEdition",
        ])
        #expect(object["note"] is NSNull)
        #expect(object["catalogueEdition"] is NSNull)
        #expect(object["mediaCondition"] is NSNull && object["discogsCollection"] is NSNull)
        #expect(object["rating"] as? Int == 0)
        #expect(object["release"] is NSNull)
        #expect(object["gtin"] as? String == "5012345678900")
        #expect(object["state"] as? String == "ambiguous")
        #expect(object["addedAt"] as? String == "2024-01-31T12:34:56Z")
        let candidates = try #require(object["candidates"] as? [[String: Any]])
        #expect(candidates.map { $0["id"] as? Int } == [11_849_140, 13_416_116])
        #expect(candidates.last?["year"] is NSNull)
    }

    @Test("JSON: the release with all its fields, and Discogs' own JSON passed through unchanged")
    func jsonRelease() throws {
        var entry = ExportSample.matched
        entry.history = [LookupEvent(id: 1, recordID: 7, at: ExportSample.addedAt, kind: .matched, message: "release 249504")]
        let object = try decode(entry, includeDiscogs: true)
        #expect(object["note"] as? String == "signed, \"mint\"\nsleeve worn")
        let location = try #require(object["location"] as? [String: Any])
        #expect(location["name"] as? String == "Crate 3, top" && location["path"] as? String == "Living Room › Crate 3, top")
        #expect((location["id"] as? NSNumber)?.intValue == 3 && location["code"] as? String == "2900000000032")
        let release = try #require(object["release"] as? [String: Any])
        #expect(release["id"] as? Int == 249_504)
        #expect(release["title"] as? String == "\"Déjà\" Vu,\nLive")
        #expect(release["genres"] as? [String] == ["Rock", "Folk, World, & Country"])
        #expect((release["labels"] as? [[String: Any]])?.last?["catno"] is NSNull)
        // The raw JSON, as a JSON value: numbers stay numbers (1 is not true), null stays null.
        let discogs = try #require(release["discogs"] as? [String: Any])
        let expected = try JSONSerialization.jsonObject(with: Data(ExportSample.awkwardRelease.rawJSON.utf8)) as? NSDictionary
        #expect(NSDictionary(dictionary: discogs) == expected)
        let text = try entry.jsonLine(includeDiscogs: true, encoder: ExportedRecord.makeJSONEncoder())
        #expect(text.contains(#""community":{"have":1,"rating":4.5}"#))
        #expect(text.contains(#""blocked":false"#) && text.contains(#""master":null"#))
        let history = try #require(object["history"] as? [[String: Any]])
        #expect(history.first?["kind"] as? String == "matched")
        #expect(history.first?["at"] as? String == "2024-01-31T12:34:56Z")
        // Without the option: no Discogs JSON.
        let plain = try #require(try decode(ExportSample.matched, includeDiscogs: false)["release"] as? [String: Any])
        #expect(plain["discogs"] == nil)
    }

    @Test("JSON: one line per record")
    func jsonLine() throws {
        let line = try ExportSample.matched.jsonLine(includeDiscogs: true, encoder: ExportedRecord.makeJSONEncoder())
        #expect(!line.contains("\n"))
        #expect(line.contains("\"url\":\"https://www.discogs.com/release/249504\""))
    }

    @Test("JSONValue keeps integers, fractions, booleans and null apart", arguments: [
        ("1", JSONValue.integer(1)), ("1.5", .number(1.5)), ("true", .bool(true)), ("null", .null),
        ("\"x\"", .string("x")), ("[0, false]", .array([.integer(0), .bool(false)])),
        ("{\"a\": {}}", .object(["a": .object([:])])), ("9007199254740993", .integer(9_007_199_254_740_993)),
    ])
    func jsonValue(_ text: String, _ expected: JSONValue) throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value == expected)
        #expect(try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value)) == expected)
    }

    private func decode(_ entry: ExportedRecord, includeDiscogs: Bool) throws -> [String: Any] {
        let data = try ExportedRecord.makeJSONEncoder().encode(ExportedRecord.JSONObject(entry, includeDiscogs: includeDiscogs))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
