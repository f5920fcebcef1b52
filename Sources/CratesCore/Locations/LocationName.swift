/// The rules for a place's name, and how names are compared.
///
/// - Not empty, at most `maximumLength` characters (it is printed on a label), no control
///   characters (it reaches terminals).
/// - No "›": it separates the places of a path ("Living Room › Shelf 2").
/// - Not something that reads as an id ("#17") or a barcode ("2900000000179"): those name a
///   place by its id wherever a name is taken.
///
/// Names are compared case-, accent- and width-insensitively, with runs of spaces as one
/// (`key(_:)`): "crate a3" names "Crate A3". Among the places in one place, names are
/// unique by that comparison, so that a path always names one place.
public enum LocationName {
    /// The longest name accepted. Whether it fits a given label is the label layout's to say
    /// (`crates labels` refuses a name that does not).
    public static let maximumLength = 80

    /// The name as stored: surrounding spaces trimmed. Throws `LocationError.badName` with the
    /// rule it breaks.
    public static func checked(_ text: String) throws(LocationError) -> String {
        let name = String(text.trimmingWhitespace())
        guard !name.isEmpty else { throw .badName(text, reason: "a place needs a name") }
        if name.unicodeScalars.contains(where: ControlCharacters.isControl) {
            throw .badName(text, reason: "a name cannot hold control characters (tabs, line breaks)")
        }
        if name.contains("›") {
            throw .badName(text, reason: "a name cannot hold “›”, which separates the places of a path")
        }
        guard name.count <= maximumLength else {
            throw .badName(text, reason: "\(name.count) characters is too long for a label: a name has at most \(maximumLength)")
        }
        if LocationReference.id(in: name) != nil {
            throw .badName(text, reason: "a name like “#17” reads as a place's id: add a word (“Box #17”)")
        }
        if (try? GTIN.parse(name)) != nil || LocationReference.looksLikeLabel(name) {
            throw .badName(text, reason: "a name of digits alone reads as a barcode: add a word (“Crate \(name)”)")
        }
        return name
    }

    /// The comparison key: folded (`TextFolding`), runs of whitespace as one space, trimmed.
    public static func key(_ text: String) -> String {
        TextFolding.fold(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

