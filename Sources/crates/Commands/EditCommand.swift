import ArgumentParser
import CratesApp
import CratesCore

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

            What you paid and who has the copy are kept here only (Discogs' collection has \
            no such fields, and no sync sends them): --paid AMOUNT (12.50), --currency CODE \
            (ISO 4217: GBP, EUR, USD…), --bought YYYY-MM-DD and --bought-from TEXT (a \
            shop, a fair, a seller); '' clears one. --lent-to NAME [--lent-on YYYY-MM-DD, \
            else today] lends the copy, --returned marks it back (the last loan is kept). \
            `crates list lent:` lists the copies out; `crates list --json` shows them as \
            purchase and loan.

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
              crates edit 12 --paid 12.50 --currency GBP --bought 2026-11-20 --bought-from "Spitalfields fair"
              crates edit 12 --lent-to Anna
              crates edit 12 --returned
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

    @Option(help: ArgumentHelp("What you paid for the copy (12.50; '' clears it). Kept here only.", valueName: "amount"))
    var paid: String?

    @Option(help: ArgumentHelp("The currency you paid in (ISO 4217: GBP, EUR, USD…).", valueName: "code"))
    var currency: String?

    @Option(help: ArgumentHelp("The day you bought it (YYYY-MM-DD).", valueName: "date"))
    var bought: String?

    @Option(name: .customLong("bought-from"), help: ArgumentHelp("Where you bought it: a shop, a fair, a seller.", valueName: "text"))
    var boughtFrom: String?

    @Option(name: .customLong("lent-to"), help: ArgumentHelp("Lend the copy to this person. Kept here only.", valueName: "name"))
    var lentTo: String?

    @Option(name: .customLong("lent-on"), help: ArgumentHelp("The day it was lent (YYYY-MM-DD; default today).", valueName: "date"))
    var lentOn: String?

    @Flag(help: "The copy came back: its loan ends today.")
    var returned = false

    var personal: RecordEditing.PersonalInput {
        RecordEditing.PersonalInput(
            paid: paid, currency: currency, bought: bought, boughtFrom: boughtFrom, lentTo: lentTo, lentOn: lentOn, returned: returned)
    }

    func validate() throws {
        if fields.values.isEmpty, grades.isEmpty, note == nil, clear.isEmpty, personal.isEmpty {
            throw ValidationError(
                "nothing to change: give a field (--artist, --title, --year…), --media, --sleeve, --rating, --note, --clear FIELD, "
                    + "--paid, --bought, --lent-to or --returned")
        }
    }

    func run() throws {
        let store = try self.store.open()
        do {
            let edited = try blocking {
                try await RecordEditing.editConfirmed(
                    id, values: fields.values, clear: clear, note: note, media: grades.media, sleeve: grades.sleeve, rating: grades.rating,
                    personal: personal, store: store)
            }
            // A person reads what was set; a script, the listing line it has always read.
            try StandardStreams.out((StandardStreams.outputIsTerminal ? edited.confirmation : edited.record.listingLine) + "\n")
        } catch let failure as RecordEditing.Failure {
            throw CLIError(failure.description)
        }
    }
}
