import ArgumentParser
import CratesApp
import CratesCore

/// `crates edit`'s grading flags: a copy's conditions, rating and note (issue 16). A group of
/// its own, so that `crates edit` takes them beside the collector's values (issue 14).
struct GradeOptions: ParsableArguments {
    @Option(name: .customLong("media"), help: ArgumentHelp(
        "The media condition: a Discogs grade (Mint (M), Near Mint (NM or M-), Very Good Plus (VG+), Very Good (VG), Good Plus (G+), Good (G), Fair (F), Poor (P)) or its short form (VG+); '' clears it.",
        valueName: "grade"))
    var media: String?

    @Option(name: .customLong("sleeve"), help: ArgumentHelp(
        "The sleeve condition: a grade as for --media, or Generic, No Cover, Not Graded; '' clears it.", valueName: "grade"))
    var sleeve: String?

    @Option(name: .customLong("rating"), help: ArgumentHelp("The rating, 1 to 5 (0: not rated).", valueName: "n"))
    var rating: String?

    @Option(name: .customLong("note"), help: ArgumentHelp("The copy's note (Discogs' Notes); '' clears it.", valueName: "text"))
    var note: String?

    /// Whether any grading flag was given.
    var isEmpty: Bool { media == nil && sleeve == nil && rating == nil && note == nil }

    /// The change the flags ask for; a bad grade or rating is a usage error.
    func change() throws -> CopyGradingChange {
        do {
            return try GradeEdit.change(media: media, sleeve: sleeve, rating: rating, note: note)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
