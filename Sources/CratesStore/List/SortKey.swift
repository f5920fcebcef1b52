import CratesCore
import Foundation

/// The sort keys stored next to each record, so that the sections query is an index walk
/// rather than a sort: SQLite compares them bytewise (its default BINARY collation), and they
/// are built so that bytewise order is the order a person expects.
///
/// - Text is folded case-, diacritic- and width-insensitively ("Björk" sorts with "bjork",
///   "ＡＢＣ" with "abc"); after folding, scripts sort by code point, so Latin comes before
///   CJK ("坂本龍一" after "Sakamoto"). A custom SQLite collation would compare the same way but
///   call back into Swift a million times per sort; a stored key costs one fold per write.
/// - Fields are joined with U+0001, below every character a folded key keeps (control
///   characters are dropped), so "abc" sorts before "abc d" whatever follows.
enum SortKey {
    static let separator: Character = "\u{1}"

    /// The section key: named sections first ("0" + folded name), `Section.unknown` last
    /// ("1"), each followed by the separator and the name as displayed, so that two names
    /// folding alike stay two sections and the display name can be read back from the key.
    static func section(_ name: String) -> String {
        if name == Section.unknown || name.isEmpty { return "1\(separator)\(Section.unknown)" }
        return "0\(fold(name))\(separator)\(name)"
    }

    /// The display name stored in a section key.
    static func sectionName(fromKey key: String) -> String {
        guard let index = key.firstIndex(of: separator) else { return key }
        return String(key[key.index(after: index)...])
    }

    /// The row key within a section: title, then artist, then GTIN.
    static func row(title: String?, artist: String?, gtin: String) -> String {
        "\(rowPrefix(title: title, artist: artist))\(gtin)"
    }

    /// The row key of an unmatched record: no title, no artist, and no GTIN either, so that
    /// unmatched records sort ahead of the titled ones in the order they were added (the
    /// record id breaks the tie). A person scanning a pile sees it in scan order; and a bulk
    /// import appends to the index instead of inserting at random places (GTINs come in
    /// any order), which took the 100,000-record import from 2.0 s to 1.2 s.
    static let unmatchedRow = rowPrefix(title: nil, artist: nil)

    /// The row key without the GTIN, to be completed in SQL with `prefix || gtin` when a
    /// release changes under many records.
    static func rowPrefix(title: String?, artist: String?) -> String {
        "\(fold(title ?? ""))\(separator)\(fold(artist ?? ""))\(separator)"
    }

    /// The key of an unmatched record: the Unknown section, no title, no artist.
    static let unknownSection = section(Section.unknown)

    /// A place's key in the place order: the names of its path from the top, folded, with
    /// each run of digits padded to ten, so that "Crate 2" sorts before "Crate 10".
    static func place(_ names: [String]) -> String {
        names.map { name in
            var key = ""
            var digits = ""
            for character in LocationName.key(name) {
                if character.isASCII, character.isNumber {
                    digits.append(character)
                    continue
                }
                key += padded(digits)
                digits = ""
                key.append(character)
            }
            return key + padded(digits)
        }.joined(separator: String(separator))
    }

    private static func padded(_ digits: String) -> String {
        digits.isEmpty || digits.count >= 10 ? digits : String(repeating: "0", count: 10 - digits.count) + digits
    }

    /// Folded for comparison (see `TextFolding.fold`, shared with the search).
    static func fold(_ text: String) -> String { TextFolding.fold(text) }
}
