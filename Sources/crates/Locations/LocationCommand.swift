import ArgumentParser
import CratesApp
import CratesCore

/// `crates location add|list|rename|remove`: the places records are in.
struct LocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "location",
        abstract: "Make, list, rename and remove places: rooms, shelves, crates.",
        discussion: """
            Places form a tree (a crate on a shelf in a room); each copy is in at most one \
            place. Each place has a label code (290 + its id + a check digit) that `crates \
            labels` prints; scanning it in the collection UI makes it the current place.

            Wherever a command takes a place, NAME is its name (any case), or, when several \
            places share a name, its path from any level down, separated by / or › \
            ("Shelf 2/Crate A"), or its id as "#17", or its label code.

            Examples:
              crates location add "Living Room"
              crates location add "Shelf 2" --in "Living Room"
              crates location add "Crate A3" --in "Living Room/Shelf 2"
              crates location list --json | jq -r .path
            """,
        subcommands: [Add.self, List.self, Rename.self, Remove.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a place, at the top or inside another (--in).",
            discussion: """
                Prints the new place as `crates location list` does. A name is unique among \
                the places in one place, at most \(LocationName.maximumLength) characters, and \
                holds no ›. Exit status: 0 made, 1 refused (the reason is said).
                """)

        @OptionGroup var store: StoreOptions
        @Argument(help: "The new place's name.") var name: String
        @Option(name: .customLong("in"), help: ArgumentHelp("The place it is in (default: at the top).", valueName: "parent"))
        var parent: String?

        func run() throws {
            let directory = LocationDirectory(store: try store.open())
            let location = try blocking { try await directory.add(self.name, in: self.parent) }
            try StandardStreams.out(LocationDirectory.line(.init(location: location)) + "\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print every place, from the top down.",
            discussion: """
                Output: one place per line, tab-separated: \(LocationDirectory.listingColumns.joined(separator: "  ")) \
                (count: the copies in the place and in the places inside it; path: the places \
                from the top, joined by " › "). With --json, JSON Lines with id, name, path, \
                parent (the id of the place it is in, null at the top), code and count. On a \
                terminal, aligned columns under a heading instead; --header puts a line of the \
                column names before the tab-separated lines.
                """)

        @OptionGroup var store: StoreOptions
        @Flag(help: "One JSON object per place and line (JSON Lines).") var json = false
        @OptionGroup var header: HeaderOption

        func validate() throws {
            try header.check(json: json)
        }

        /// What a terminal shows: the place's path first, then its label and how much it holds.
        static let terminalColumns = [
            TableColumn(heading: "PLACE", field: 3, cap: 48),
            TableColumn(heading: "ID", field: 0, cap: 8, rightAligned: true),
            TableColumn(heading: "LABEL", field: 1, cap: 13),
            TableColumn(heading: "RECORDS", field: 2, cap: 8, rightAligned: true),
        ]

        func run() throws {
            // Read-only: a collection the user may not write can be listed, and none is made.
            let directory = LocationDirectory(store: try store.openForReading())
            let entries = try blocking { try await directory.entries() }
            if json {
                try StandardStreams.out(jsonLines: try entries.map { try LocationDirectory.jsonLine($0) })
                return
            }
            let output = ColumnOutput(names: LocationDirectory.listingColumns, columns: Self.terminalColumns, header: header.header)
            try output.write(lines: entries.map(LocationDirectory.line))
            try output.finish()
            if case .aligned = output.form, entries.isEmpty {
                try StandardStreams.out("No places yet: make one with `crates location add NAME`.\n")
            }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a place, or move it (with what it holds) into another (--in) or to the top (--top).",
            discussion: """
                A place cannot go inside itself or a place inside it. Exit status: 0 done, 1 \
                refused (the reason is said).

                Examples:
                  crates location rename "Crate A3" "Crate B1"
                  crates location rename "Crate B1" --in "Hall/Shelf 1"
                """)

        @OptionGroup var store: StoreOptions
        @Argument(help: "The place.") var name: String
        @Argument(help: "Its new name (default: unchanged).") var newName: String?
        @Option(name: .customLong("in"), help: ArgumentHelp("Move it into this place.", valueName: "parent")) var parent: String?
        @Flag(help: "Move it to the top (a room).") var top = false

        func validate() throws {
            if parent != nil, top { throw ValidationError("--in and --top contradict each other: give one") }
            if newName == nil, parent == nil, !top { throw ValidationError("give a new name, --in PARENT or --top") }
        }

        func run() throws {
            let directory = LocationDirectory(store: try store.open())
            let entry = try blocking { try await directory.change(self.name, to: self.newName, in: self.parent, top: self.top) }
            try StandardStreams.out(LocationDirectory.line(entry) + "\n")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a place; one that holds records or places asks first, or takes --move-to.",
            discussion: """
                Without --move-to, a place that holds anything asks on the terminal (y/N): \
                yes removes it with the places inside it, and their records stay in the \
                collection in no place. With --move-to, what the place holds (records and \
                places) moves into that place first, and nothing is asked. Exit status: 0 \
                removed, 1 not removed (refused, or the answer was no).

                Examples:
                  crates location remove "Crate A3" --move-to "Crate A4"
                  echo y | crates location remove "Old shelf"
                """)

        @OptionGroup var store: StoreOptions
        @Argument(help: "The place.") var name: String
        @Option(name: .customLong("move-to"), help: ArgumentHelp("Move what it holds into this place.", valueName: "place"))
        var moveTo: String?

        func run() throws {
            let directory = LocationDirectory(store: try store.open())
            let removal = try blocking { try await directory.removal(of: self.name) }
            if removal.holdsSomething, self.moveTo == nil {
                StandardStreams.err(removal.question)
                guard StandardStreams.confirmed() else { throw CLIError("not removed: \(removal.location.pathText)") }
            }
            try StandardStreams.out(try blocking { try await directory.remove(removal.location, moveTo: self.moveTo) } + "\n")
        }
    }
}
