import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates check CODE...`: at a record fair, what each record is and where the collector
/// stands with it (owned, another pressing owned, wanted, new) and what it is worth, from
/// what is on this machine. Nothing is added, queued or sent.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Say whether you own, want or lack a record, and what it is worth, without adding it.",
        discussion: """
            CODE is a barcode in any form `crates barcode` reads, or a Discogs release \
            (r249504, or a release page URL); with --search, free text (artist, title, \
            catalogue number) searched in the local catalogue. Without CODE, codes are read \
            from standard input, one a line, each answered as it comes \
            (`zbarimg -q --raw *.jpg | crates check`).

            The answer comes from the local catalogue of Discogs' data, the collection, the \
            wantlist and the price cache: no request for a code the catalogue knows, whether \
            or not Discogs can be reached. A code it does not know is looked up on Discogs \
            when it can be reached; otherwise it is said so, and the verdict is unknown. \
            Nothing is written: no record added, no lookup queued, nothing pushed.

            Verdicts, for each pressing and for the code (the strongest of its pressings):
              owned          a copy of this pressing is in the collection (its place and grades said)
              otherPressing  a copy of another pressing of the same master is (how they differ said)
              wanted         it is on the wantlist
              new            none of these
              unknown        nothing is known of the code

            Output: on a terminal, a block per code; to a pipe, one tab-separated line per \
            pressing:
              \(CheckAnswer.columns.joined(separator: "  "))
            With --json, one JSON object per code and line: code, gtin, releases (id, \
            artist, title, country, year, label, catno, format, master, source, verdict, \
            price), owned (id, release, place, media, sleeve, rating, added), \
            otherPressings (the copy's members, of, master, differences), wanted (release, \
            notes, rating, added), price (per release id: lowest, currency, forSale, asOf, \
            or null), verdict and note. A code refused is said on standard error.

            Exit status:
              0  every code answered
              2  a code refused: not a barcode, or not a record's (an ISBN, a coupon, a
                 shop's price label, a crates label): never looked up
              4  a code not in the catalogue, and Discogs could not be reached (or asked)

            Examples:
              crates check 5099750442227
              crates check r249504 --json | jq -r .verdict
              zbarimg -q --raw crate/*.jpg | crates check
              crates check --search 'dark side of the moon'
            """)

    @OptionGroup var store: StoreOptions

    @OptionGroup var catalogue: CatalogueOption

    @Flag(help: "One JSON object per code and line (JSON Lines).")
    var json = false

    @Option(help: ArgumentHelp("Search the catalogue for this text (artist, title, catalogue number) instead of a code.", valueName: "text"))
    var search: String?

    @Argument(help: ArgumentHelp("Barcodes or Discogs releases (r249504); none: read from standard input.", valueName: "code"))
    var codes: [String] = []

    @OptionGroup var diagnostics: VerboseOption

    func validate() throws {
        if search != nil, !codes.isEmpty { throw ValidationError("give either --search TEXT or codes, not both") }
    }

    func run() throws {
        diagnostics.install("check")
        // Read only: a check writes nothing. A collection an older crates wrote is upgraded
        // first (the only write, and only its schema); none at all reads as an empty one.
        let store = try self.store.openForReading(upgrading: true)
        let (catalogue, warning) = RecordCheck.openCatalogue(flag: self.catalogue.path)
        if let warning { StandardStreams.errLine("crates check: \(warning)") }
        let check = RecordCheck(store: store, catalogue: catalogue, makeAccess: { try? DiscogsAccess.make() })
        let terminal = StandardStreams.outputIsTerminal
        var tally = RecordCheck.Tally()
        let answer = { (outcome: RecordCheck.Outcome) throws in
            tally.count(outcome)
            switch outcome {
            case .refused(let code, let reason):
                StandardStreams.errLine("crates check: \(code): \(reason)")
            case .answered(let answer):
                if json {
                    try StandardStreams.out(jsonLines: [answer.json])
                } else if terminal {
                    try StandardStreams.out(lines: answer.block(now: Date()) + [""])
                } else {
                    try StandardStreams.out(lines: answer.lines)
                }
            }
        }
        if let search {
            try answer(try blocking { await check.search(search) })
        } else if !codes.isEmpty {
            for code in codes { try answer(try blocking { await check.check(code) }) }
        } else {
            while let line = readLine(strippingNewline: true) {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.isEmpty else { continue }
                try answer(try blocking { await check.check(code) })
            }
        }
        if let status = tally.exitStatus { throw ExitCode(status) }
    }
}
