import ArgumentParser
import CratesApp

/// `crates move ID... --to NAME`: puts records in a place.
struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Put records in a place.",
        discussion: """
            Each ID is a record's id (the first column of `crates list`) or its copy label \
            (291…, typed or scanned). With --query, the arguments are a query instead, as \
            `crates list` takes it, and every record it keeps is moved, in one transaction. \
            NAME is the place as `crates location` takes it: a \
            name, a path (Shelf 2/Crate A3), #id, or its label code. Exit status: 0 every \
            record moved, 1 some id is not a record (the others are moved), or the place is \
            not found; 64 a query term crates cannot read.

            Examples:
              crates move 12 13 14 --to "Crate A3"
              crates move --query format:7\" place:"Living Room" --to Singles
              crates list --state notFound | cut -f1 | xargs crates move --to "To check"
            """)

    @OptionGroup var store: StoreOptions
    @Argument(parsing: .allUnrecognized, help: "Record ids, or copy labels (with --query: a query).") var ids: [String]
    @Option(help: ArgumentHelp("The place to put them in.", valueName: "name")) var to: String
    @Flag(help: "Move the records a query keeps (the arguments are words and field:value terms, as crates list takes them).")
    var query = false

    func validate() throws {
        if query { _ = try QueryArguments(terms: ids).query() } else if ids.isEmpty {
            throw ValidationError("give the records to move: ids or copy labels, or --query and a query")
        }
    }

    func run() throws {
        try QueryArguments.answering { try move() }
    }

    private func move() throws {
        let store = try self.store.open()
        guard let named = try NamedRecords.read(ids, query: query, in: store, command: "move", verb: "moved") else { return }
        var failed = named.failed
        let directory = LocationDirectory(store: store)
        let (chosen, to) = (named.ids, self.to)
        let moved = try blocking { try await directory.move(chosen, to: to) }
        for id in moved.missing {
            failed = true
            StandardStreams.errLine("crates move: record \(id) is not in the collection")
        }
        try StandardStreams.out(moved.summary + "\n")
        if failed { throw ExitCode(1) }
    }
}
