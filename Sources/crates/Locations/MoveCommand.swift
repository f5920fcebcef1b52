import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates move ID... --to NAME`: puts records in a place.
struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Put records in a place.",
        discussion: """
            Each ID is a record's id (the first column of `crates list`) or its copy label \
            (291…, typed or scanned). NAME is the place as `crates location` takes it: a \
            name, a path (Shelf 2/Crate A3), #id, or its label code. Exit status: 0 every \
            record moved, 1 some id is not a record (the others are moved), or the place is \
            not found.

            Examples:
              crates move 12 13 14 --to "Crate A3"
              crates list --state notFound | cut -f1 | xargs crates move --to "To check"
            """)

    @OptionGroup var store: StoreOptions
    @Argument(help: "Record ids, or copy labels.") var ids: [String]
    @Option(help: ArgumentHelp("The place to put them in.", valueName: "name")) var to: String

    func run() throws {
        var ids: [Int64] = []
        var failed = false
        for text in self.ids {
            switch LocationDirectory.recordID(text) {
            case .success(let id): ids.append(id)
            case .failure(let error):
                failed = true
                StandardStreams.errLine("crates move: \(error)")
            }
        }
        let directory = LocationDirectory(store: try store.open())
        let (chosen, to) = (ids, self.to)
        let moved = try blocking { try await directory.move(chosen, to: to) }
        for id in moved.missing {
            failed = true
            StandardStreams.errLine("crates move: record \(id) is not in the collection")
        }
        try StandardStreams.out(moved.summary + "\n")
        if failed { throw ExitCode(1) }
    }
}
