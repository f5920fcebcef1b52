import CratesCore
import Foundation
import Testing

/// One grammar behind the three readers: what one takes, the others take; what one refuses,
/// the others refuse, at the same byte and for the same reason.
@Suite("JSON reader: one grammar")
struct JSONReaderTests {
    static let valid = [
        "{}", "[]", "0", "-0", "-0.5e+10", "1E3", "\"\"", "true", "false", "null", " \t\r\n[ 1 , 2 ]\n",
        #"{"a": {"b": [{"c": null}]}, "d": "\u00e9\ud83c\udfb6 \"quoted\" \\ \/"}"#, "\"坂本 🎶\"", "[true,false,null]",
    ]

    static let invalid: [(text: String, offset: Int, what: String)] = [
        ("", 0, "the file is empty"),
        ("[01]", 1, "a number with a leading zero: JSON allows none"),
        ("[-]", 1, "a number without digits"),
        ("[1.]", 1, "a number cut short after its decimal point"),
        ("[1e]", 1, "a number cut short after its exponent"),
        ("[12ab]", 1, "`12ab` is not a number: text goes in double quotes"),
        ("[1,]", 3, "a comma after the last item: JSON allows none (remove it)"),
        ("{\"a\":1,}", 7, "a comma after the last member: JSON allows none (remove it)"),
        ("{\"a\" 1}", 5, "a colon (:) was expected after the name \"a\""),
        ("[truex]", 1, "`truex` is not a JSON value: text goes in double quotes (\"truex\")"),
        ("[True]", 1, "`True`: JSON writes true in lower case"),
        ("[nul]", 1, "`nul` is not a JSON value: text goes in double quotes (\"nul\")"),
        ("\"a\\x\"", 2, "a backslash that starts no JSON escape (a backslash itself is written \\\\)"),
        ("\"\\u12G4\"", 1, "\\u must be followed by four hexadecimal digits"),
        ("\"\\ud83c\"", 1, "half of a surrogate pair (\\ud83c) without its other half"),
        ("\"\\udfb6\"", 1, "half of a surrogate pair (\\udfb6) without its other half"),
        ("\"\\ud83c\\u0041\"", 1, "half of a surrogate pair (\\ud83c) without its other half"),
        ("\"tab\tin\"", 4, "a control character inside a string"),
        ("[\"open", 6, "the file ends inside the string opened on line 1: a \" is missing"),
        ("[1 2]", 3, "`2` where a comma or ] was expected"),
        ("{} x", 3, "`x` after the end of the JSON value"),
        ("[// no\n1]", 1, "a comment: JSON has none (remove it)"),
    ]

    @Test("valid documents: all three readers take them")
    func validEverywhere() throws {
        for text in Self.valid {
            let bytes = Array(text.utf8)
            #expect(JSONText.compacted(text) != nil, "\(text)")
            #expect(throws: Never.self, "\(text)") { try JSONNode.parse(bytes[...]) }
            #expect(throws: Never.self, "\(text)") { try JSONOutline(bytes) }
        }
    }

    @Test("invalid documents: all three refuse them, the value parse and the outline at the same byte with the same words")
    func invalidEverywhere() {
        for (text, offset, what) in Self.invalid {
            let bytes = Array(text.utf8)
            #expect(JSONText.compacted(text) == nil, "\(text)")
            #expect(throws: JSONNode.SyntaxError(offset: offset, what: what), "\(text)") { try JSONNode.parse(bytes[...]) }
            #expect(throws: (any Error).self, "\(text)") { try JSONOutline(bytes) }
        }
    }

    @Test("a surrogate pair decodes to its one character; escapes decode")
    func strings() throws {
        let node = try JSONNode.parse(Array(#"["\ud83c\udfb6", "a\"b\\c\/d\b\f\n\r\t\u00e9", "plain"]"#.utf8)[...])
        #expect(node.array?.map(\.string) == ["🎶", "a\"b\\c/d\u{08}\u{0C}\n\r\té", "plain"])
    }

    @Test("a slice keeps offsets from its own start")
    func sliceOffsets() throws {
        let bytes = Array("xx{\"a\": [1, 2], \"b\":3}".utf8)
        let node = try JSONNode.parse(bytes[2...])
        guard case .object(_, let ranges) = node else { Issue.record("not an object"); return }
        #expect(ranges["a"] == 6..<12 && ranges["b"] == 18..<19)
        #expect(throws: JSONNode.SyntaxError(offset: 3, what: "`}` where a value was expected")) { try JSONNode.parse(Array("xx[1,}".utf8)[2...]) }
    }
}
