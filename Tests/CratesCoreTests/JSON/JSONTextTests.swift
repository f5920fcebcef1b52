import CratesCore
import Foundation
import Testing

/// The byte-scan JSON check that lets Discogs' JSON into crates' export as text.
@Suite("JSON text: check and compact")
struct JSONTextTests {
    @Test("valid JSON: whitespace between tokens removed, strings and numbers untouched", arguments: [
        ("{}", "{}"), ("[]", "[]"), (" { \"a\" : [ 1 , 2.5e-3 , -0 , true , false , null ] }\n", #"{"a":[1,2.5e-3,-0,true,false,null]}"#),
        ("\"a b\\n\\u00e9\\\" \\\\ \\/\"", "\"a b\\n\\u00e9\\\" \\\\ \\/\""), ("\r\n\t42\t", "42"),
        (#"{"tracklist": [{"title": "Glory To The Brave", "duration": "7:20"}]}"#,
         #"{"tracklist":[{"title":"Glory To The Brave","duration":"7:20"}]}"#),
        ("{\"é\": \"坂本 🎶\"}", "{\"é\":\"坂本 🎶\"}"), ("9007199254740993", "9007199254740993"),
    ])
    func valid(_ input: String, _ compact: String) {
        #expect(JSONText.compacted(input) == compact)
    }

    @Test("not JSON: nil", arguments: [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[1.]", "[.5]", "[1e]", "[+1]", "[-]",
        "\"unterminated", "\"tab\tinside\"", "\"line\nbreak\"", "\"\\x\"", "\"\\u12G4\"", "tru", "nul", "True",
        "{} {}", "[1] x", "[\"a\" \"b\"]", "{\"a\":}", "[,1]", "NaN", "Infinity", "'single'",
    ])
    func invalid(_ input: String) {
        #expect(JSONText.compacted(input) == nil)
    }

    @Test("nesting deeper than the limit is refused, not a stack overflow")
    func deep() {
        let ok = String(repeating: "[", count: JSONReading.maximumDepth) + String(repeating: "]", count: JSONReading.maximumDepth)
        #expect(JSONText.compacted(ok) == ok)
        let tooDeep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONText.compacted(tooDeep) == nil)
    }

    @Test("the Discogs fixtures compact to the same document", arguments: ["1.json", "10507194.json", "5134861.json"])
    func fixtures(_ name: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Fixtures/discogs/releases/\(name)"), encoding: .utf8)
        let compact = try #require(JSONText.compacted(text))
        #expect(!compact.contains("\n"))
        let original = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary
        let reread = try JSONSerialization.jsonObject(with: Data(compact.utf8)) as? NSDictionary
        #expect(original != nil && original == reread)
    }

    @Test("a record's JSON line holds Discogs' JSON as the slower value-by-value encoding does")
    func spliceMatchesValues() throws {
        let encoder = ExportedRecord.makeJSONEncoder()
        var entry = ExportSample.matched
        entry.release?.rawJSON = "{\n  \"id\": 249504,\n  \"notes\": \"crates-discogs-json- \\\" }\",\n  \"n\": 1.5\n}"
        let fast = try entry.jsonLine(includeDiscogs: true, encoder: encoder)
        #expect(!fast.contains("\n"))
        let slow = try encoder.encode(ExportedRecord.JSONObject(entry, includeDiscogs: true))
        let a = try JSONSerialization.jsonObject(with: Data(fast.utf8)) as? NSDictionary
        let b = try JSONSerialization.jsonObject(with: slow) as? NSDictionary
        #expect(a != nil && a == b)
        // Damaged JSON goes in as a string, never as broken output, by either path (a
        // trailing comma is not JSON, though Foundation's decoder lets it through).
        for damaged in ["{\"id\": 249504, oops", "{\"tracklist\": [1, 2, ]}"] {
            entry.release?.rawJSON = damaged
            for data in [Data(try entry.jsonLine(includeDiscogs: true, encoder: encoder).utf8),
                         try encoder.encode(ExportedRecord.JSONObject(entry, includeDiscogs: true))] {
                let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect((object["release"] as? [String: Any])?["discogs"] as? String == damaged)
            }
        }
    }
}
