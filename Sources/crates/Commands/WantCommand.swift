import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates want`: the wantlist, kept in the collection file and as one with the Discogs
/// wantlist by `crates sync`.
struct WantCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "want",
        abstract: "Keep the wantlist: releases you are looking for (synced with your Discogs wantlist).",
        discussion: """
            The wantlist lives in the collection file; `crates sync` keeps it as one with \
            your Discogs wantlist, both ways (changes made offline go out at the next sync). \
            `crates check` and the collection UI's check mode say when a record is on it.

            Examples:
              crates want add 5099750442227 --notes 'first UK press only' --rating 4
              crates want add r249504
              crates want list --refresh
              crates want list --sort price
              crates want edit 249504 --rating 5
              crates want remove r249504
            """,
        subcommands: [Add.self, Remove.self, List.self, Edit.self])

    /// The wantlist of this run.
    static func wantlist(_ store: StoreOptions, _ catalogue: CatalogueOption) throws -> Wantlist {
        Wantlist(store: try store.open(), catalogue: catalogue.open("crates want"), makeAccess: { try? DiscogsAccess.make() })
    }

    static func rating(_ text: String?) throws -> Rating? {
        guard let text else { return nil }
        if text.isEmpty { return .unrated }
        do {
            return try Rating(parsing: text)
        } catch {
            throw ValidationError("--rating: \(error)")
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put releases on the wantlist.",
            discussion: """
                Each CODE is a barcode (any form `crates barcode` reads) or a Discogs release \
                (r249504, or a release page URL). A barcode is answered by the local \
                catalogue (no request), else Discogs; when several pressings share it, crates \
                names them and you add the one you want by its rID. A release Discogs cannot \
                be asked about now is added by its id, and the next sync says what it is.

                Exit status: 0 every code added (or on the wantlist already); 1 a code \
                refused, ambiguous or not found (the others are added); 4 a code not in the \
                catalogue and Discogs could not be reached.
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var catalogue: CatalogueOption
        @Option(help: ArgumentHelp("Your notes on what you want (Discogs' wantlist notes).", valueName: "text")) var notes: String?
        @Option(help: ArgumentHelp("How much you want it, 1 to 5.", valueName: "n")) var rating: String?
        @Argument(help: ArgumentHelp("Barcodes or Discogs releases.", valueName: "code")) var codes: [String]

        func validate() throws { _ = try WantCommand.rating(rating) }

        func run() throws {
            let wantlist = try WantCommand.wantlist(store, catalogue)
            let rating = try WantCommand.rating(self.rating) ?? .unrated
            let notes = self.notes.flatMap { $0.isEmpty ? nil : $0 }
            var status: Int32 = 0
            for code in codes {
                switch try blocking({ try await wantlist.add(code, notes: notes, rating: rating) }) {
                case .success(.added(let want)):
                    try StandardStreams.out("wanted r\(want.releaseID) \(want.described)\n")
                case .success(.already(let want)):
                    try StandardStreams.out("already wanted r\(want.releaseID) \(want.described)\n")
                case .failure(let failure):
                    StandardStreams.errLine("crates want add: \(failure)")
                    if case .unreachable = failure { status = 4 } else if status == 0 { status = 1 }
                }
            }
            if status != 0 { throw ExitCode(status) }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take releases off the wantlist.",
            discussion: """
                Each CODE is a release (r249504, a release page, or the id `crates want list` \
                prints) or a barcode (each of its pressings on the wantlist). The next sync \
                removes them from your Discogs wantlist too. Exit status: 0 removed; 1 a code \
                names nothing on the wantlist.
                """)

        @OptionGroup var store: StoreOptions
        @OptionGroup var catalogue: CatalogueOption
        @Argument(help: ArgumentHelp("Releases or barcodes.", valueName: "code")) var codes: [String]

        func run() throws {
            let wantlist = try WantCommand.wantlist(store, catalogue)
            var failed = false
            for code in codes {
                switch try blocking({ try await wantlist.remove(code) }) {
                case .success(let removed) where removed.isEmpty:
                    failed = true
                    StandardStreams.errLine("crates want remove: \(ControlCharacters.cleaned(code)): not on the wantlist")
                case .success(let removed):
                    try StandardStreams.out(lines: removed.map { "removed r\($0.releaseID) \($0.described)" })
                case .failure(let failure):
                    failed = true
                    StandardStreams.errLine("crates want remove: \(failure)")
                }
            }
            if failed { throw ExitCode(1) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the wantlist, with the lowest price when known.",
            discussion: """
                On a terminal, a line per release: artist — title, the pressing, notes, \
                rating, when added, and the lowest price with its age. To a pipe, tab-separated:
                  \(WantEntry.columns.joined(separator: "  "))
                With --json, one object per release and line: release, artist, title, \
                country, year, label, catno, format, master, notes, rating, added, price \
                (lowest, currency, forSale, asOf; or null).

                --refresh first asks Discogs' marketplace for each wanted release's lowest \
                price and number for sale (one request each, at background priority within \
                the rate limit), kept for `crates check` at a fair, offline. Exit status: 3 \
                --refresh not signed in, 4 --refresh Discogs could not be reached (the \
                figures asked so far are kept).
                """)

        @OptionGroup var store: StoreOptions
        @Flag(help: "One JSON object per release and line.") var json = false
        @Flag(help: "Ask Discogs for the prices first.") var refresh = false
        @Option(help: ArgumentHelp(
            "The order: artist (A–Z, the default), added (the earliest first), rating (the most wanted first) or price (the lowest first; none known last).",
            valueName: "order"))
        var sort: WantOrder = .artist
        @Flag(help: "The order the other way round (--sort added --reverse: the latest added first).") var reverse = false

        func run() throws {
            let store = try self.store.open()
            var status: Int32 = 0
            if refresh {
                let stop = StopRequest.install(announcement: PriceRefresh.stopping)
                let currency = ConfigurationFile.current().currency
                status = try PriceRefresh.run("want list", stop: stop) { access, progress in
                    await WantlistPrices(store: store, access: access).refresh(currency: currency, progress: progress)
                }
            }
            let wantlist = Wantlist(store: store, catalogue: nil, makeAccess: { nil })
            let entries = sort.arranged(try blocking { try await wantlist.list() }, reversed: reverse)
            let now = Date()
            if json {
                try StandardStreams.out(jsonLines: entries.map { $0.want.json(price: $0.price) })
            } else if StandardStreams.outputIsTerminal {
                if entries.isEmpty { StandardStreams.errLine("The wantlist is empty: `crates want add CODE` puts a release on it.") }
                try StandardStreams.out(lines: entries.map { $0.want.readable(price: $0.price, now: now) })
            } else {
                try StandardStreams.out(lines: entries.map { $0.want.line(price: $0.price) })
            }
            if status != 0 { throw ExitCode(status) }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a wanted release's notes and rating.",
            discussion: """
                ID is the release (249504, r249504 or its page). --notes '' removes the \
                notes, --rating 0 the rating. The next sync writes them to your Discogs \
                wantlist. Exit status: 1 the release is not on the wantlist; 64 nothing to change.
                """)

        @OptionGroup var store: StoreOptions
        @Argument(help: ArgumentHelp("The wanted release.", valueName: "id")) var id: String
        @Option(help: ArgumentHelp("Your notes ('' removes them).", valueName: "text")) var notes: String?
        @Option(help: ArgumentHelp("How much you want it, 1 to 5 (0: not rated).", valueName: "n")) var rating: String?

        func validate() throws {
            _ = try WantCommand.rating(rating)
            if notes == nil, rating == nil { throw ValidationError("nothing to change: give --notes or --rating") }
        }

        func run() throws {
            let wantlist = Wantlist(store: try store.open(), catalogue: nil, makeAccess: { nil })
            let (id, notes, rating) = (self.id, self.notes.map { $0.isEmpty ? nil : $0 }, try WantCommand.rating(self.rating))
            let edited = try blocking { try await wantlist.edit(id, notes: notes, rating: rating) }.mapError { CLIError("\($0)") }.get()
            try StandardStreams.out("edited r\(edited.releaseID) \(edited.described)\n")
        }
    }
}

extension WantOrder: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
