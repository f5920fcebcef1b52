import ArgumentParser
import CratesApp
import CratesNet
import Foundation
import Glibc

/// The `crates` command: the TUI by default, subcommands for scripting.
@main
struct Crates: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crates",
        abstract: "A terminal cataloguer for record collections.",
        discussion: """
            Scan or type a barcode and the record appears in a genre-sectioned list;
            Discogs fills in artist, title, genre, format, year and label.

            Without a subcommand, opens the collection in the terminal UI: scan or type
            barcodes straight into the list, ? shows the keys.

            Examples:
              crates
              crates --db ~/records/shop.sqlite
              crates --check                   (at a record fair: scans add nothing)
              crates barcode 5099750442227
            """,
        version: CratesVersion.current,
        subcommands: [
            AuthCommand.self, BarcodeCommand.self, AddCommand.self, ListCommand.self, StatsCommand.self, ValueCommand.self,
            ExportCommand.self,
            LookupCommand.self, ImportCommand.self, BackupCommand.self, ScandCommand.self, ScanCommand.self,
            SearchCommand.self, EditCommand.self, RefreshCommand.self,
            LocationCommand.self, MoveCommand.self, LabelsCommand.self, SyncCommand.self, CatalogueCommand.self,
            ConfigCommand.self, CoverCommand.self, CheckCommand.self, DeleteCommand.self, WantCommand.self,
        ],
    )

    /// Descriptors 0–2 are filled first (`StandardStreams.prepare`): `crates scand 2>&-` must
    /// not take its lock file for standard error. Then ArgumentParser's usual main, over the
    /// arguments with `--name=` made `--name ''` (`emptyValuesSpelledOut`), but for where its
    /// messages go: through `StandardStreams` as every other text, so that an error thrown
    /// with a server's words in it is made printable too.
    static func main() {
        StandardStreams.prepare()
        // What is wrong with config.json is said every time crates starts, before anything
        // else: the defaults stand in meanwhile, and a person may not run `crates config`.
        for warning in ConfigurationFile.startupWarnings(startPreferences) {
            StandardStreams.errLine(warning)
        }
        do {
            var command = try parseAsRoot(dashedValuesJoined(emptyValuesSpelledOut(Array(CommandLine.arguments.dropFirst()))))
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let text = fullMessage(for: error)
            if !text.isEmpty {
                // Help, --version and the completion scripts to standard output, as
                // ArgumentParser writes them; errors to standard error.
                if code == .success { try? StandardStreams.out(text + "\n") } else { StandardStreams.errLine(text) }
            }
            Glibc.exit(code.rawValue)
        }
    }

    /// config.json as crates read it at start (once: the warnings above, and the collection
    /// UI's preferences, come from the same reading).
    static let startPreferences = ConfigurationFile.current()

    /// One prefix for every error, whoever raises it: "crates add: …", as the commands' own
    /// messages and Unix tools begin, not ArgumentParser's "Error: …" for the errors it prints
    /// (usage errors, and errors thrown out of `run()`).
    static var _errorPrefix: String {
        "\(commandPath(Array(CommandLine.arguments.dropFirst()))): "
    }

    /// "crates location add" for `crates --db x location add Shelf`: the subcommands named in
    /// `arguments`, in order, up to a lone `--`.
    static func commandPath(_ arguments: [String]) -> String {
        var path = ["crates"]
        var command: any ParsableCommand.Type = Crates.self
        for argument in arguments {
            if argument == "--" { break }
            guard let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) else { continue }
            path.append(argument)
            command = sub
        }
        return path.joined(separator: " ")
    }

    /// `--rating=` (what `--rating=''` is once the shell has read it) as `--rating ''`:
    /// ArgumentParser takes `--name=` for a missing value, and the help offers '' to clear a
    /// rating, a grade or a field. Past a lone `--`, arguments are left as they are.
    static func emptyValuesSpelledOut(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var options = true
        for argument in arguments {
            if argument == "--" { options = false }
            if options, argument.hasPrefix("--"), argument.count > 3, argument.hasSuffix("="), !argument.dropLast().contains("=") {
                out += [String(argument.dropLast()), ""]
            } else {
                out.append(argument)
            }
        }
        return out
    }

    /// The options whose value is free text a record holds: a catalogue number may begin
    /// with a dash ("-123"), and so may a title or a note.
    static let freeTextOptions: Set<String> = ["--artist", "--title", "--genre", "--format", "--label", "--catno", "--country", "--note"]

    /// `--catno -123` as `--catno=-123`: ArgumentParser takes an argument that begins with a
    /// dash for an option, and so says the value is missing, while the help writes
    /// `--catno C`. A free-text option's next argument is its value when it begins with a
    /// single dash; one that begins with two is an option (`--catno --rating 4` is still
    /// missing its value), and such a value is written `--note=--x`. Past a lone `--`,
    /// arguments are left as they are.
    static func dashedValuesJoined(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" { return out + arguments[index...] }
            let next = index + 1 < arguments.endIndex ? arguments[index + 1] : nil
            if freeTextOptions.contains(argument), let next, next.hasPrefix("-"), !next.hasPrefix("--") {
                out.append(argument + "=" + next)
                index += 2
            } else {
                out.append(argument)
                index += 1
            }
        }
        return out
    }

    @OptionGroup var store: StoreOptions

    /// `--no-lookup`: a group shared with `crates import` (see `LookupOptions`).
    @OptionGroup var lookup: LookupOptions

    @Option(
        name: .customLong("scanner"),
        help: ArgumentHelp(
            "The camera daemon's socket (default: $XDG_RUNTIME_DIR/crates/scan.sock, as `crates scand`).",
            valueName: "path"))
    var scannerSocket: String?

    @Flag(help: "Do not connect to the camera daemon (`crates scand`).")
    var noScanner = false

    @Flag(help: "Do not show covers (I shows them; config.json's `covers` false hides them for good).")
    var noCovers = false

    @Flag(help: "Start in check mode: each scan says whether you own, want or lack the record, and adds nothing (f leaves it).")
    var check = false

    func validate() throws {
        try ScanSocketOption.check(scannerSocket, flag: "--scanner")
        if noScanner, scannerSocket != nil {
            throw ValidationError("--scanner and --no-scanner contradict each other: give one")
        }
    }

    /// The collection UI. Runs on the main thread, synchronously: under an async command it
    /// would run on a worker thread and miss SIGWINCH until the next key.
    mutating func run() throws {
        let store = try self.store.open(patient: false)
        let scanner = noScanner
            ? nil : ScanSocketPath.resolve(option: scannerSocket, environment: ProcessInfo.processInfo.environment)
        // Credentials that cannot be read show as "not signed in" on the status line; `A`
        // (or `crates auth`) says why.
        let discogs = try? DiscogsAccess.make()
        let catalogue = lookup.catalogue.openFollowed("crates")
        // The preferences read at start: said on standard error then, and again on the status
        // line, which the UI's screen does not hide.
        if let signal = CollectionUI.run(
            store: store, discogs: discogs, lookups: !lookup.noLookup, scanner: scanner, catalogue: catalogue,
            covers: !noCovers, checking: check, preferences: Self.startPreferences)
        {
            // As a shell reports a process killed by a signal.
            throw ExitCode(128 + signal)
        }
    }
}
