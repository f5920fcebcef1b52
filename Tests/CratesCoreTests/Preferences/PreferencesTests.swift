import CratesCore
import Testing

/// The configuration file read as a person writes it: what is wrong said with its line, the
/// defaults standing in, and a change that leaves the rest of the text as it was.
@Suite("Preferences")
struct PreferencesTests {
    static func problem(_ text: String) -> JSONOutline.SyntaxError? {
        do {
            _ = try JSONOutline(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    static func read(_ text: String, layouts: [String] = ["a4-3x7", "letter-3x10"]) -> Preferences {
        Preferences(reading: Array(text.utf8), path: "/c/config.json", layouts: layouts) { name in
            layouts.contains(name.lowercased()) ? nil : "no layout \(name)"
        }
    }

    @Test("the usual slips, each with its line, column and what is wrong", arguments: [
        ("{\n  \"covers\": false,\n}\n", "line 3, column 1: a comma after the last member: JSON allows none (remove it)"),
        ("{\n  \"covers\": false\n  \"sort\": \"year\"\n}", "line 3, column 3: a comma is missing before this member"),
        ("{\n  // mine\n  \"covers\": false\n}", "line 2, column 3: a comment: JSON has none (remove it)"),
        ("{'covers': false}", "line 1, column 2: a single quote: JSON text is in double quotes (\")"),
        ("{\"covers\": False}", "line 1, column 12: `False`: JSON writes false in lower case"),
        ("{\"currency\": EUR}", "line 1, column 14: `EUR` is not a JSON value: text goes in double quotes (\"EUR\")"),
        ("{covers: false}", "line 1, column 2: a member's name goes in double quotes (\"covers\")"),
        ("{\"covers\" false}", "line 1, column 11: a colon (:) was expected after the name \"covers\""),
        ("{\n  \"sort\": \"year\n}", "line 2, column 16: a line break inside a string (the string opened on line 2 is not closed, or write \\n)"),
        ("{\n  \"covers\": true", "line 2, column 17: the file ends inside the object opened on line 1: a } is missing"),
        ("", "line 1, column 1: the file is empty"),
        ("{} {}", "line 1, column 4: `{` after the end of the JSON value"),
        ("{\"covers.cacheMB\": 0500}", "line 1, column 20: a number with a leading zero: JSON allows none"),
        ("{\"é\": 1, \"x\": ]}", "line 1, column 15: `]` where a value was expected"),
    ])
    func problems(_ text: String, _ expected: String) {
        #expect(Self.problem(text)?.description == expected)
    }

    @Test("valid JSON passes, whatever its layout")
    func valid() {
        for text in ["{}", " {\n}\n", #"{"a": [1, 2.5e3, -0.1, "x\"y\u00e9", null, true, {"b": {}}]}"#, "[1]", "\"text\""] {
            #expect(Self.problem(text) == nil, "\(text)")
        }
    }

    @Test("values read: each key's type checked, the defaults standing in for what is wrong, unknown members named")
    func reading() {
        let defaults = Preferences()
        #expect(defaults.covers && defaults.coverCacheMB == 500 && defaults.currency == nil)
        #expect(defaults.labelLayout == "a4-3x7" && defaults.sort == .artist && defaults.syncFolder == nil && defaults.problems.isEmpty)

        let good = Self.read(#"{"covers": false, "covers.cacheMB": 200, "currency": "eur", "labels.layout": "Letter-3x10", "sort": "Year", "discogs_sync_folder": 3}"#)
        #expect(good.problems.isEmpty, "\(good.problems)")
        #expect(!good.covers && good.coverCacheMB == 200 && good.coverCacheBytes == 200_000_000)
        #expect(good.currency == "EUR" && good.labelLayout == "Letter-3x10" && good.sort == .year && good.syncFolder == "3")

        let bad = Self.read("{\n  \"covers\": \"yes\",\n  \"covers.cacheMB\": 0,\n  \"currency\": \"DEM\",\n  \"cover\": 1,\n  \"labels.layout\": \"a5\"\n}")
        #expect(!bad.isUnusable)
        #expect(bad.covers && bad.coverCacheMB == 500 && bad.currency == nil && bad.labelLayout == "a4-3x7")
        #expect(bad.problems.map(\.description) == [
            "/c/config.json, line 2: covers is \"yes\": it takes true or false",
            "/c/config.json, line 3: covers.cacheMB is 0: it takes a whole number from 1 to 1000000",
            "/c/config.json, line 4: currency is \"DEM\": it takes one of USD, GBP, EUR, CAD, AUD, JPY, CHF, MXN, BRL, NZD, SEK, ZAR",
            "/c/config.json, line 5: \"cover\" is not a setting crates knows (`crates config` lists them)",
            "/c/config.json, line 6: labels.layout is \"a5\": it takes a label layout: a4-3x7, letter-3x10",
        ])
        #expect(bad.problem(with: .covers) != nil && bad.problem(with: .sort) == nil)

        // A secret's value is never repeated in a message.
        let secret = Self.read(#"{"discogs_consumer_secret": 12345}"#)
        #expect(secret.problems.map(\.description) == ["/c/config.json, line 1: discogs_consumer_secret: it takes text, not empty"])

        let broken = Self.read("{\"covers\": false,}")
        #expect(broken.isUnusable && broken.covers)
        #expect(broken.problems.map(\.description) == ["/c/config.json is not valid JSON: line 1, column 18: a comma after the last member: JSON allows none (remove it)"])
        let array = Self.read("[1]")
        #expect(array.isUnusable && array.problems.first?.description == "/c/config.json must hold a JSON object, such as {\"covers\": false}")
    }

    @Test("a value typed on the command line: flags in several words, choices in any case, ranges kept")
    func typed() {
        let none: (String) -> String? = { _ in nil }
        #expect(PreferenceKey.covers.value(typed: "off", layoutProblem: none) == .flag(false))
        #expect(PreferenceKey.covers.value(typed: "Yes", layoutProblem: none) == .flag(true))
        #expect(PreferenceKey.covers.value(typed: "maybe", layoutProblem: none) == nil)
        #expect(PreferenceKey.coverCacheMB.value(typed: "200", layoutProblem: none) == .integer(200))
        #expect(PreferenceKey.coverCacheMB.value(typed: "-1", layoutProblem: none) == nil)
        #expect(PreferenceKey.coverCacheMB.value(typed: "2.5", layoutProblem: none) == nil)
        #expect(PreferenceKey.currency.value(typed: "gbp", layoutProblem: none) == .text("GBP"))
        #expect(PreferenceKey.sort.value(typed: "PLACE", layoutProblem: none) == .text("place"))
        #expect(PreferenceKey.sort.value(typed: "genre", layoutProblem: none) == nil)
        #expect(PreferenceKey.syncFolder.value(typed: "7", layoutProblem: none) == .integer(7))
        #expect(PreferenceKey.syncFolder.value(typed: " Vinyl ", layoutProblem: none) == .text("Vinyl"))
        #expect(PreferenceKey.labelLayout.value(typed: "a5", layoutProblem: { _ in "no" }) == nil)
        #expect(PreferenceValue.text("a \"b\"").literal == #""a \"b\"""#)
    }

    @Test("a change rewrites one member: order, spacing and unknown members stay")
    func editing() throws {
        let text = "{\n    \"theme\": \"dark\",   \"covers\": true,\n    \"x\": [1, 2]\n}\n"
        let outline = try JSONOutline(Array(text.utf8))
        #expect(String(decoding: outline.setting("covers", to: "false"), as: UTF8.self)
            == "{\n    \"theme\": \"dark\",   \"covers\": false,\n    \"x\": [1, 2]\n}\n")
        #expect(String(decoding: outline.setting("sort", to: "\"year\""), as: UTF8.self)
            == "{\n    \"theme\": \"dark\",   \"covers\": true,\n    \"x\": [1, 2],\n    \"sort\": \"year\"\n}\n")
        #expect(String(decoding: outline.removing("covers"), as: UTF8.self) == "{\n    \"theme\": \"dark\",\n    \"x\": [1, 2]\n}\n")
        #expect(String(decoding: outline.removing("theme"), as: UTF8.self) == "{\n    \"covers\": true,\n    \"x\": [1, 2]\n}\n")
        #expect(String(decoding: outline.removing("x"), as: UTF8.self) == "{\n    \"theme\": \"dark\",   \"covers\": true\n}\n")
        #expect(outline.removing("nothing") == outline.bytes)

        let line = try JSONOutline(Array(#"{"a": 1}"#.utf8))
        #expect(String(decoding: line.setting("b", to: "2"), as: UTF8.self) == #"{"a": 1, "b": 2}"#)
        #expect(String(decoding: line.removing("a"), as: UTF8.self) == "{}")
        let empty = try JSONOutline(Array("{ }\n".utf8))
        #expect(String(decoding: empty.setting("covers", to: "false"), as: UTF8.self) == "{\n  \"covers\": false\n}\n")
        // A name written twice: the last is the one read, and the one changed.
        let twice = try JSONOutline(Array(#"{"sort": "year", "sort": "title"}"#.utf8))
        #expect(String(decoding: twice.setting("sort", to: "\"label\""), as: UTF8.self) == #"{"sort": "year", "sort": "label"}"#)
        #expect(String(decoding: twice.removing("sort"), as: UTF8.self) == "{}")
        #expect(String(decoding: JSONOutline.document([("covers", "false")]), as: UTF8.self) == "{\n  \"covers\": false\n}\n")
    }
}
