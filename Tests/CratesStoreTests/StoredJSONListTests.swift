import CratesCore
import Foundation
import Testing

@testable import CratesStore

/// `StoredJSONList` reads a release row's JSON arrays as JSONDecoder does, and leaves to it
/// (nil) whatever it does not read.
@Suite struct StoredJSONListTests {
    static let strings: [String] = [
        "", "Rock", "Vinyl, 7\", 45 RPM", "A\\B", "slash / and \\/", "tab\tline\nreturn\r", "\u{0}\u{1}\u{1F}\u{7F}",
        "\u{80}\u{85}\u{9B}\u{9F}", "Björk", "坂本龍一", "😀 and 👩‍👩‍👧", "\u{FEFF}bom", "\u{2028}\u{2029}", "\"quoted\"",
    ]

    @Test("arrays of strings as JSONEncoder writes them read as JSONDecoder reads them")
    func encodedStrings() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for count in 0...3 {
            for start in Self.strings.indices {
                let values = (0..<count).map { Self.strings[(start + $0) % Self.strings.count] }
                let text = String(decoding: try encoder.encode(values), as: UTF8.self)
                #expect(StoredJSONList.strings(text) == values, "\(text)")
            }
        }
    }

    @Test("labels as JSONEncoder writes them read as JSONDecoder reads them")
    func encodedLabels() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let labels = Self.strings.enumerated().map { index, name in
            Release.LabelCredit(name: name, catno: index % 3 == 0 ? nil : Self.strings[(index + 5) % Self.strings.count])
        }
        for count in 0...labels.count {
            let values = Array(labels.prefix(count))
            let text = String(decoding: try encoder.encode(values), as: UTF8.self)
            #expect(StoredJSONList.labels(text) == values, "\(text)")
        }
    }

    @Test("any JSON of these shapes reads as JSONDecoder reads it: whitespace, escapes, surrogate pairs, nulls")
    func writtenByOthers() throws {
        let strings = [
            " [ ] ", "[\n\"a\" ,\r\n\t\"b\"]", #"["\u00e9\u00C9", "\ud83d\ude00", "\b\f\n\r\t\"\\\/"]"#, #"["\u0000"]"#,
        ]
        for text in strings {
            let decoded = try JSONDecoder().decode([String].self, from: Data(text.utf8))
            #expect(StoredJSONList.strings(text) == decoded, "\(text)")
        }
        let labels = [
            #"[{"name":"A\\B","catno":null},{ "catno" : "X 1" , "name" : "Z" }, {"name":"N"}]"#, "[]",
            #"[{"catno":"\u0031","name":"\ud83c\udfb5"}]"#,
        ]
        for text in labels {
            let decoded = try JSONDecoder().decode([Release.LabelCredit].self, from: Data(text.utf8))
            #expect(StoredJSONList.labels(text) == decoded, "\(text)")
        }
    }

    @Test("what it does not read is left to JSONDecoder (nil), refused or not")
    func leftToTheDecoder() {
        for text in [
            "", "[", "[\"a\"", "[\"a\",]", "[1]", "[null]", "[\"a\"] x", "{}", "[\"\\x\"]", "[\"\\ud83d\"]", "[\"\\udc00\"]",
            "[\"a\nb\"]", "[\"\\u12\"]", "[\"a\"][\"b\"]",
        ] {
            #expect(StoredJSONList.strings(text) == nil, "\(text)")
        }
        for text in [
            "[{}]", "[{\"name\":\"a\",\"name\":\"b\"}]", "[{\"name\":\"a\",\"other\":1}]", "[{\"catno\":\"1\"}]",
            "[{\"name\":null}]", "[{\"name\":\"a\",}]", "[\"a\"]",
        ] {
            #expect(StoredJSONList.labels(text) == nil, "\(text)")
        }
    }

    @Test("a release row reads the same whether its lists take the fast way or JSONDecoder's")
    func releaseRows() async throws {
        let store = try CollectionStore.inMemory()
        let release = Release(
            id: 7, artist: "Björk", title: "Homogenic", genres: ["Electronic", "Pop"], styles: [],
            formats: ["Vinyl, 12\", 45 RPM", "CD, Album"], year: 1997, country: "UK",
            labels: [.init(name: "One Little Indian", catno: "TPLP 71"), .init(name: "Elektra", catno: nil)])
        try await store.write { db in _ = try StoredValues.upsertRelease(db, release, now: Date()) }
        let stored = try await store.read { db in try StoredValues.fetchRelease(db, id: 7) }
        #expect(stored?.genres == release.genres)
        #expect(stored?.styles == release.styles)
        #expect(stored?.formats == release.formats)
        #expect(stored?.labels == release.labels)
        // A list JSONDecoder alone reads (a member crates never writes): the same value.
        try await store.write { db in
            try db.execute(sql: #"UPDATE release SET labelsJSON = '[{"name":"Elektra","extra":1}]' WHERE id = 7"#)
        }
        #expect(try await store.read { db in try StoredValues.fetchRelease(db, id: 7) }?.labels == [.init(name: "Elektra", catno: nil)])
        // One that is not JSON at all: still refused, naming the column.
        try await store.write { db in try db.execute(sql: "UPDATE release SET formatsJSON = '[\"CD\",' WHERE id = 7") }
        await #expect(throws: StoreError.self) { _ = try await store.read { db in try StoredValues.fetchRelease(db, id: 7) } }
    }
}
