import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates edit ID`: the collector's own values of a record, kept apart from Discogs', its
/// note, and the copy's conditions and rating.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Set a record's fields to your own values (they win over Discogs'), its note, grades and rating.",
        discussion: """
            ID is the record's id (the first column of `crates list`). Each field given \
            becomes the collector's value: it is shown, sorted and exported instead of \
            Discogs', and a later lookup (`crates refresh`, r in the collection UI) refreshes \
            Discogs' values without touching it. --genre moves the record to that section. \
            --clear FIELD (repeatable: artist, title, genre, year, format, label, catno, \
            country, or note) gives a field back to Discogs (or removes the note). \
            `crates list --json` and `crates export` show which values are the collector's.

            Grades are Discogs' own: Mint (M), Near Mint (NM or M-), Very Good Plus (VG+), \
            Very Good (VG), Good Plus (G+), Good (G), Fair (F), Poor (P); a sleeve also \
            takes Generic, No Cover and Not Graded. Type them in full or short ("VG+", \
            "near mint"), in any case; '' clears one. The next `crates sync` writes the \
            grades, rating and note to the copy on Discogs (its Media Condition, Sleeve \
            Condition and Notes fields, and its rating). `crates list --json` shows them.

            Output: on a terminal, what was set, in words, on which record ("Set media \
            Very Good Plus (VG+), rating ★★★★☆ on 12 The Beatles — Abbey Road"); to a pipe \
            or a file, the record as `crates list` prints it, with the new values.

            Exit status: 0 when changed; 1 when a value is refused (the message says why) \
            or there is no such record; 64 when the command line is wrong or gives nothing \
            to change.

            Examples:
              crates edit 12 --year 1974 --country UK
              crates edit 12 --genre Jazz --note 'first pressing, signed'
              crates edit 12 --clear year --clear genre
              crates edit 12 --media VG+ --sleeve 'near mint' --rating 4
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record's id, as `crates list` shows it.")
    var id: Int64

    @OptionGroup var fields: RecordFieldOptions

    @OptionGroup var grades: GradeOptions

    @Option(help: ArgumentHelp(
        "The record's note, up to 10,000 characters (Discogs' Notes, kept in step by `crates sync`; an empty one removes it).", valueName: "text"))
    var note: String?

    @Option(name: .customLong("clear"), help: ArgumentHelp(
        "Give this field back to Discogs (\(RecordField.names)), or remove the note (note); repeatable.",
        valueName: "field"))
    var clear: [String] = []

    func validate() throws {
        if fields.values.isEmpty, grades.isEmpty, note == nil, clear.isEmpty {
            throw ValidationError(
                "nothing to change: give a field (--artist, --title, --year…), --media, --sleeve, --rating, --note or --clear FIELD")
        }
    }

    func run() throws {
        let store = try self.store.open()
        let (id, values, clear, note, grades) = (self.id, fields.values, self.clear, self.note, self.grades)
        do {
            let edited = try blocking {
                try await RecordEditing.editConfirmed(
                    id, values: values, clear: clear, note: note, media: grades.media, sleeve: grades.sleeve, rating: grades.rating,
                    store: store)
            }
            // A person reads what was set; a script, the listing line it has always read.
            try StandardStreams.out((ColumnOutput.outputIsTerminal ? edited.confirmation : edited.record.listingLine) + "\n")
        } catch let failure as RecordEditing.Failure {
            throw CLIError(failure.description)
        }
    }
}
