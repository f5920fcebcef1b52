import GRDB
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// `crates_contains(text, word)`: 1 when `word` occurs in `text`, 0 when not, NULL when
/// either is NULL; the test the list's filter applies to each record it reads.
///
/// It answers as `instr(text, word) > 0` does for the filter's values, only faster: `instr`
/// compares the word at each character of the text in turn (a call to `memcmp` per
/// character), this one looks for the word's first byte with `memchr`, which scans many
/// bytes at once, and compares the rest only there. Both compare bytes; a match found so always
/// starts at a character, as `instr`'s do, because a word in UTF-8 never starts with a
/// continuation byte (the filter's words and texts are UTF-8 that Swift made). An empty
/// word is in every text, as for `instr`.
///
/// A C function, not a `DatabaseFunction`: this one is called once per record and word, and
/// GRDB's wrapper would copy the record's text into a Swift `String` each time.
enum FilterContains {
    static let name = "crates_contains"

    /// Registers the function on the connection `db` (every connection the store opens).
    static func register(_ db: Database) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let code = sqlite3_create_function_v2(db.sqliteConnection, name, 2, flags, nil, contains, nil, nil, nil)
        guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
    }

    private static let contains: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, count, arguments in
        guard count == 2, let arguments,
              sqlite3_value_type(arguments[0]) != SQLITE_NULL, sqlite3_value_type(arguments[1]) != SQLITE_NULL
        else {
            sqlite3_result_null(context)
            return
        }
        // The text first, then its length (SQLite's order: the length is of the text form).
        let text = sqlite3_value_text(arguments[0])
        let textLength = Int(sqlite3_value_bytes(arguments[0]))
        let word = sqlite3_value_text(arguments[1])
        let wordLength = Int(sqlite3_value_bytes(arguments[1]))
        guard wordLength > 0 else {
            sqlite3_result_int(context, 1)
            return
        }
        guard let text, let word, textLength >= wordLength else {
            sqlite3_result_int(context, 0)
            return
        }
        sqlite3_result_int(context, find(word, wordLength, in: text, textLength) ? 1 : 0)
    }

    /// Whether the `wordLength` bytes at `word` (at least one) occur in the `textLength` at
    /// `text`: `memchr` finds each place the word's first byte is, `memcmp` compares the rest
    /// there. (glibc's `memmem` does as much but is not in Swift's Glibc module.)
    static func find(
        _ word: UnsafePointer<UInt8>, _ wordLength: Int, in text: UnsafePointer<UInt8>, _ textLength: Int
    ) -> Bool {
        let first = Int32(word[0])
        let lastStart = textLength - wordLength
        var start = 0
        while start <= lastStart {
            guard let hit = memchr(text + start, first, lastStart - start + 1) else { return false }
            let at = UnsafeRawPointer(text).distance(to: UnsafeRawPointer(hit))
            if wordLength == 1 || memcmp(text + at + 1, word + 1, wordLength - 1) == 0 { return true }
            start = at + 1
        }
        return false
    }
}
