import ArgumentParser
import CratesCore

/// The `crates` command: the TUI by default, subcommands for scripting.
@main
struct Crates: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "crates",
        abstract: "A terminal cataloguer for record collections.",
        discussion: """
            Scan or type a barcode and the record appears in a genre-sectioned list;
            Discogs fills in artist, title, genre, format, year and label.
            """,
        version: version,
        subcommands: [AuthCommand.self, BarcodeCommand.self],
    )

    mutating func run() throws {
        print("crates \(Self.version): the collection UI arrives with the TUI issue.")
    }
}
