import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates edit ID`: the collector's own values of a record, kept apart from Discogs'.
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Set a record's fields to your own values (they win over Discogs'), or its note.",
        discussion: """
            ID is the record's id (the first column of `crates list`). Each field given \
            becomes the collector's value: it is shown, sorted and exported instead of \
            Discogs', and a later lookup (`crates refresh`, r in the collection UI) refreshes \
            Discogs' values without touching it. --genre moves the record to that section. \
            --clear FIELD (repeatable: artist, title, genre, year, format, label, catno, \
            country, or note) gives a field back to Discogs (or removes the note). \
            `crates list --json` and `crates export` show which values are the collector's.

            Output: the record as `crates list` prints it, with the new values.

            Exit status: 0 when changed; 1 when a value is refused (the message says why) \
            or there is no such record; 64 when the command line is wrong.

            Examples:
              crates edit 12 --year 1974 --country UK
              crates edit 12 --genre Jazz --note 'first pressing, signed'
              crates edit 12 --clear year --clear genre
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record's id, as `crates list` shows it.")
    var id: Int64

    @OptionGroup var fields: RecordFieldOptions

    @Option(help: ArgumentHelp("The record's note (an empty one removes it).", valueName: "text"))
    var note: String?

    @Option(name: .customLong("clear"), help: ArgumentHelp(
        "Give this field back to Discogs (\(RecordField.names)), or remove the note (note); repeatable.",
        valueName: "field"))
    var clear: [String] = []

    func validate() throws {
        if fields.values.isEmpty, note == nil, clear.isEmpty {
            throw ValidationError("nothing to change: give a field (--artist, --title, --year…), --note or --clear FIELD")
        }
    }

    func run() throws {
        let store = try self.store.open()
        let (id, values, clear, note) = (self.id, fields.values, self.clear, self.note)
        do {
            let exported = try blocking { try await RecordEditing.edit(id, values: values, clear: clear, note: note, store: store) }
            try StandardStreams.out(exported.listingLine + "\n")
        } catch let failure as RecordEditing.Failure {
            throw CLIError(failure.description)
        }
    }
}
