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
        TextFolding.words(text).joined()
    }

    /// The second form sent when the number as typed finds nothing: punctuation turned into
    /// spaces, and a space where letters turn into digits ("ILPS9135" → "ILPS 9135",
    /// "cdp7460012" → "cdp 7460012"), or where digits turn into letters after at least three
    /// digits ("12345X" → "12345 X").
    ///
    /// Digits followed by letters after a shorter run stay one word: "1C", "2C", "5C" are
    /// EMI's country prefixes and are printed as one word ("1C 064-82 306"), so "1C064"
    /// becomes "1C 064", not "1 C 064".
    ///
    /// What it cannot recover: digit groups the typist ran together ("cdp7460012" is
    /// "cdp 7460012", and the printed "7 46001 2" is three words), and spaces typed where the
    /// sleeve has none ("MOVLP 001" for "MOVLP001"; see `compacted`).
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
        return words.joined(separator: " ")
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
