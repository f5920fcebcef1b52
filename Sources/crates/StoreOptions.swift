import ArgumentParser
import CratesStore

/// `--db PATH`, shared by every command that opens the collection.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The collection database (default: $CRATES_DB, else $XDG_DATA_HOME/crates/crates.sqlite).",
        valueName: "path"))
    var db: String?

    /// The database's path, or exits with the store's message.
    func path() throws -> String {
        do {
            return try StoreLocation.resolve(flag: db)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// Refuses an output file (`export --csv FILE`, `import --report FILE`, `labels -o
    /// FILE`, `cover -o FILE`) that is one of the collection's own files (the database, its
    /// -wal, -shm or -journal, by device and inode: a link to one is caught too) or the
    /// Discogs catalogue's, or cannot be written: before anything is opened, read or added.
    /// "-" is standard output.
    func checkOutput(_ output: String) throws {
        guard output != "-" else { return }
        try CLIError.saying {
            try StoreLocation.checkOutput(output, database: try path(), catalogue: try? CatalogueLocation.resolve(flag: nil))
        }
    }

    /// Opens the collection read-only, for a command that only reads it (`list`, `export`,
    /// `location list`, `labels`):
    /// a missing file is not created (it reads as an empty collection), and a collection the
    /// user may not write (mode 0444, a directory 0555) can be read. `upgrading`: a
    /// collection of an older version is opened to be upgraded (`open`) rather than refused.
    func openForReading(upgrading: Bool = false) throws -> CollectionStore {
        try CLIError.saying {
            do {
                return try CollectionStore(readingAt: try path())
            } catch StoreError.noDatabase {
                return try CollectionStore.inMemory()
            } catch StoreError.needsMigration where upgrading {
                return try open()
            }
        }
    }

    /// Opens the store, or exits with the store's message (never a stack trace).
    ///
    /// A command's writes wait a minute for another program's lock (`LockPatience.command`),
    /// saying so once on stderr; the collection UI (`patient: false`) waits one busy timeout
    /// and says why in its status line.
    ///
    /// However the command then ends (done, an error, exit(3), Ctrl-C, SIGTERM or SIGHUP), it
    /// leaves the collection file complete on its own, with nothing of it only in the -wal
    /// file: a collector may copy the file alone. A command that stops cleanly on a signal
    /// (`StopRequest.install`) installs its request before opening.
    func open(patient: Bool = true) throws -> CollectionStore {
        CollectionStore.checkpointWrittenCollectionsAtExit()
        StopRequest.quitOnSignals()
        return try CLIError.saying {
            let file = try path()
            // An upgrade that builds an index over a large collection takes a while: say why
            // the command waits, before it does.
            let patience: LockPatience = patient ? .command { StandardStreams.errLine(Self.waitingForLock) } : .oneTimeout
            return try CollectionStore(path: file, patience: patience) { records in
                StandardStreams.errLine(
                    "\(file): upgrading the collection (\(records.formatted()) records) for this version of crates: "
                        + "a minute or so a million records…")
            }
        }
    }
}

extension StoreOptions {
    /// Said once when a command's write has waited one busy timeout for another program.
    static var waitingForLock: String {
        "\(Crates._errorPrefix)waiting for the collection: another program holds it locked (a minute at most)"
    }
}

/// An error the command line reports as one line on stderr, with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// `body`'s value; any error it throws but a `CLIError` as a `CLIError` of its text
    /// (the message a command ends with, never a stack trace).
    static func saying<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("\(error)")
        }
    }
}
