/// Catalogue numbers as people type them and as Discogs stores them.
///
/// Discogs keeps a catalogue number as printed ("CDP 7 46001 2", "1C 064-82 306",
/// "ILPS 9135", "MOVLP001") and searches it as a text index does: folded, split on every
/// character that is not a letter or a digit, a release matching when every word of the
/// query is one of its words. So "cdp-7-46001-2" finds "CDP 7 46001 2" (same words), but
/// "CDP7460012" does not (one word, "cdp7460012", against four). Locally, numbers are
/// compared on their `key`, which ignores all of that.
public enum CatalogueNumber {
    /// The comparison key: letters and digits only, folded ("CDP 7 46001 2", "cdp7460012" and
    /// "CDP-7-46001-2" all give "cdp7460012"; "ＣＤＰ" gives "cdp"). Empty when `text` has
    /// no letter or digit.
    public static func key(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return TextFolding.words(text).joined() }
        // Fast path (almost every number): in printable ASCII the word characters are the
        // letters and digits, and folding is lower-casing. A catalogue build keys millions.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"): bytes.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 0x20)
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The second form sent when the number as typed finds nothing: punctuation turned into
    /// spaces, and a space where letters turn into digits ("ILPS9135" → "ILPS 9135",
    /// "MOVLP001" → "MOVLP 001"), or where digits turn into letters after at least three
    /// digits ("12345X" → "12345 X").
    ///
    /// Digits followed by letters after a shorter run stay one word: "1C", "2C", "5C" are
    /// EMI's country prefixes and are printed as one word ("1C 064-82 306"), so "1C064"
    /// becomes "1C 064", not "1 C 064".
    ///
    /// One grouping of digits run together is known: EMI's CD numbers of the 1980s and 1990s,
    /// a prefix of two to four letters and seven digits printed 1-5-1 with the first a 7
    /// ("CDP 7 46001 2", "CDM 7 48328 2"), so "cdp7460012" becomes "cdp 7 46001 2".
    ///
    /// What it cannot recover: other digit groups the typist ran together, and spaces typed
    /// where the sleeve has none ("MOVLP 001" for "MOVLP001"; see `compacted`).
    public static func respaced(_ text: String) -> String {
        var words: [String] = []
        var current = ""
        var previous: Kind = .separator
        var digitRun = 0
        for character in text {
            let kind = Kind(character)
            switch kind {
            case .separator:
                if !current.isEmpty { words.append(current) }
                current = ""
                digitRun = 0
            case .letter, .digit:
                let boundary = (previous == .letter && kind == .digit)
                    || (previous == .digit && kind == .letter && digitRun >= 3)
                if boundary, !current.isEmpty {
                    words.append(current)
                    current = ""
                }
                digitRun = kind == .digit ? digitRun + 1 : 0
                current.append(character)
            }
            previous = kind
        }
        if !current.isEmpty { words.append(current) }
        return emiGrouped(words).joined(separator: " ")
    }

    /// Seven digits starting with 7 after a two-to-four-letter prefix, split 1-5-1.
    private static func emiGrouped(_ words: [String]) -> [String] {
        guard words.count == 2, (2...4).contains(words[0].count), words[0].allSatisfy(\.isLetter),
              words[1].count == 7, words[1].allSatisfy(\.isASCII), words[1].allSatisfy(\.isNumber), words[1].hasPrefix("7")
        else { return words }
        let digits = Array(words[1])
        return [words[0], String(digits[0]), String(digits[1...5]), String(digits[6])]
    }

    /// The number with every separator removed, letters as typed ("MOVLP 001" → "MOVLP001"):
    /// the form that finds a number printed without spaces when the typist added some.
    public static func compacted(_ text: String) -> String {
        String(text.filter(TextFolding.isWordCharacter))
    }

    /// The words a text index makes of `text` (see `TextFolding.words`).
    public static func words(_ text: String) -> [String] {
        TextFolding.words(text)
    }

    /// Discogs writes "none" for a release without a catalogue number.
    public static func isNone(_ text: String) -> Bool {
        key(text) == "none"
    }

    private enum Kind: Equatable {
        case letter, digit, separator

        init(_ character: Character) {
            if character.isNumber {
                self = .digit
            } else if character.isLetter {
                self = .letter
            } else {
                self = .separator
            }
        }
    }
}
