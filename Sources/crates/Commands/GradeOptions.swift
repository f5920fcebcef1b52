import ArgumentParser

/// `crates edit`'s grading flags: a copy's media and sleeve conditions and rating,
/// beside the collector's values (`RecordFieldOptions`) and the note. Checked with the rest
/// of the edit by `RecordEdit.checked`.
struct GradeOptions: ParsableArguments {
    @Option(name: .customLong("media"), help: ArgumentHelp(
        "The media condition: a Discogs grade (Mint (M), Near Mint (NM or M-), Very Good Plus (VG+), Very Good (VG), Good Plus (G+), Good (G), Fair (F), Poor (P)) or its short form (VG+); '' clears it.",
        valueName: "grade"))
    var media: String?

    @Option(name: .customLong("sleeve"), help: ArgumentHelp(
        "The sleeve condition: a grade as for --media, or Generic, No Cover, Not Graded; '' clears it.", valueName: "grade"))
    var sleeve: String?

    @Option(name: .customLong("rating"), help: ArgumentHelp("The rating, 1 to 5 (0 or '': not rated).", valueName: "n"))
    var rating: String?

    /// Whether any grading flag was given.
    var isEmpty: Bool { media == nil && sleeve == nil && rating == nil }
}
