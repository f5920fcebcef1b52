import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates edit ID`: the copy's conditions, rating and note. (Issue 14's collector's values
/// join this command at merge: its flags beside `GradeOptions`.)
struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Set a copy's media and sleeve conditions, rating and note.",
        discussion: """
            ID is the record's id, as `crates list` prints it. Grades are Discogs' own: \
            Mint (M), Near Mint (NM or M-), Very Good Plus (VG+), Very Good (VG), Good Plus \
            (G+), Good (G), Fair (F), Poor (P); a sleeve also takes Generic, No Cover and Not \
            Graded. Type them in full or short ("VG+", "near mint"), in any case. The next \
            `crates sync` writes them to the copy on Discogs (its Media Condition, Sleeve \
            Condition and Notes fields, and its rating).

            Output: one tab-separated line, the copy as stored:
              id  media  sleeve  rating  note

            Exit status: 0 when changed; 1 when there is no such record; 64 when a value is \
            not a grade or a rating, or no value is given.

            Examples:
              crates edit 12 --media VG+ --sleeve 'near mint' --rating 4
              crates edit 12 --note 'signed; small seam split'
              crates edit 12 --sleeve ''
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: "The record's id (`crates list` shows it).")
    var id: Int64

    @OptionGroup var grades: GradeOptions

    func validate() throws {
        _ = try grades.change()
    }

    func run() throws {
        let edit = GradeEdit(store: try store.open())
        let change = try grades.change()
        let id = self.id
        do {
            let record = try blocking { try await edit.apply(change, to: id) }
            try StandardStreams.out(GradeEdit.line(record) + "\n")
        } catch let error as GradeEditError {
            throw CLIError(error.description)
        }
    }
}
