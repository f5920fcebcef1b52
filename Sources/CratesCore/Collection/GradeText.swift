/// The texts a grade may be typed as, reduced to a key: lowercased, without spaces or
/// underscores (so "Very Good Plus", "verygoodplus" and "VG +" meet). Hyphens stay: "M-"
/// is Near Mint, "M" is Mint.
enum GradeText {
    static func key(_ text: String) -> String {
        String(String.UnicodeScalarView(text.lowercased().unicodeScalars.filter { !$0.properties.isWhitespace && $0 != "_" }))
    }

    static let media: [String: MediaCondition] = {
        var table: [String: MediaCondition] = [:]
        let spellings: [(MediaCondition, [String])] = [
            (.mint, ["Mint", "M"]),
            (.nearMint, ["Near Mint", "NM", "M-", "NM or M-", "NM/M-"]),
            (.veryGoodPlus, ["Very Good Plus", "VG+"]),
            (.veryGood, ["Very Good", "VG"]),
            (.goodPlus, ["Good Plus", "G+"]),
            (.good, ["Good", "G"]),
            (.fair, ["Fair", "F"]),
            (.poor, ["Poor", "P"]),
        ]
        for (grade, names) in spellings {
            for name in names + [grade.rawValue] { table[key(name)] = grade }
        }
        return table
    }()

    static let sleeveOnly: [String: SleeveCondition] = [
        key("Generic"): .generic,
        key("No Cover"): .noCover,
        key("Not Graded"): .notGraded,
    ]
}
