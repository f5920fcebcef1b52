import ArgumentParser
import CratesApp

/// `crates backup FILE`: a copy of the collection that is whole on its own, even while the
/// collection is in use.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the collection to a file, whole, even while it is in use.",
        discussion: """
            The collection is one SQLite file, but while crates has it open (the collection \
            UI, an import) part of it may be in the -wal file beside it: a copy of \
            crates.sqlite alone, taken then, may miss records. crates backup writes one \
            snapshot of the whole collection to FILE, a single SQLite file that needs no \
            -wal file: another process may go on writing meanwhile, and the copy opens \
            anywhere, read-only too (`crates list --db FILE`), or as the collection itself \
            (`--db FILE`, CRATES_DB).

            FILE is refused when it is one of the collection's own files (the database, its \
            -wal, -shm or -journal, or a link to one), a directory, a device or a pipe, or \
            cannot be written: nothing is read before. The copy goes to a temporary file \
            beside FILE that replaces it only when complete: a backup that fails or is \
            stopped leaves FILE as it was. A FILE replaced keeps its permissions.

            Exit status: 0 when written; 1 when the collection could not be read or FILE \
            could not be written (nothing is changed then).

            Examples:
              crates backup ~/backups/crates-$(date +%F).sqlite
              crates backup --db shop.sqlite shop-copy.sqlite
            """)

    @OptionGroup var store: StoreOptions

    @Argument(help: ArgumentHelp("The file to write the copy to.", valueName: "file"))
    var file: String

    func validate() throws {
        if file.isEmpty { throw ValidationError("name the file to write the copy to") }
        if file == "-" { throw ValidationError("a backup is an SQLite file: name a file, not - (standard output)") }
    }

    func run() throws {
        try CLIError.saying {
            try CollectionFileCopy.write(collection: try store.path(), to: file)
            // A person at a terminal is told what was written; a script reads nothing new.
            if StandardStreams.outputIsTerminal { try StandardStreams.out(WrittenFileText.backup(to: file) + "\n") }
        }
    }
}
