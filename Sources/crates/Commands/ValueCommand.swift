import ArgumentParser
import CratesApp
import CratesCore
import Foundation

/// `crates value`: what the collection is worth, as Discogs prices it.
struct ValueCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "value",
        abstract: "What the collection is worth on Discogs: stored figures, or asked again with --refresh.",
        discussion: """
            Without --refresh, the figures stored by the last refresh, with their date and age: \
            no request is sent. Each figure says where it comes from and when: the \
            collection's minimum, median and maximum as Discogs writes them (its collection \
            value, the owner only), for each copy matched to a release the lowest price listed \
            and how many are for sale, and the price Discogs suggests for the copy's media \
            grade (only for an account with seller settings). A figure Discogs did not give is \
            shown as unknown, never made up. A full release fetch (a lookup) stores the \
            release's lowest price and number for sale too.

            --refresh asks Discogs again, at background priority and the rate Discogs allows, \
            with a progress bar, the time left and the seconds of any wait for Discogs' rate \
            limit on a terminal (each wait on a line of its own otherwise): one request for the \
            account's currency when none is named, one per release, one per release with a \
            graded copy, and one for the collection. Each answer is stored as it comes (one \
            figure per day per release, copy and collection; the days before are kept), so \
            Ctrl-C keeps what was asked: it ends a wait for the rate limit at once, and an \
            answer already on its way is stored.

            Currency: --currency, else `currency` in config.json, else the account's (its \
            Discogs profile's, read at each --refresh; shown without --refresh as the last \
            refresh stored it). Discogs' currencies: \(PreferenceKey.currencies.joined(separator: " ")).

            --json prints one object: "currency"; "collection" with "minimum", "median", \
            "maximum" as numbers, "text" (Discogs' strings as given) and "at"; "records", one \
            per copy, with "id", "releaseId", "lowestPrice", "forSale", "grade", \
            "suggestedPrice" (null where unknown) and "at". --history prints the collection's \
            value per month (the month's last refresh).

            Exit status:
              0  the figures shown (a refresh asked every one)
              1  the collection could not be opened
              3  --refresh, not signed in to Discogs, or refused
              4  --refresh, Discogs could not be reached or failed past its retries (the
                 figures asked so far are kept)

            Examples:
              crates value
              crates value --refresh
              crates value --json --currency EUR
              crates value --history
              crates value format:lp place:"Living Room"

            A query (words and field:value terms, as `crates list` takes them) narrows the \
            copies shown and their total to those it keeps.
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Ask Discogs again for every figure (at the rate Discogs allows).")
    var refresh = false

    @Flag(help: "One JSON object instead of lines.")
    var json = false

    @Option(help: ArgumentHelp("The currency (\(PreferenceKey.currencies.joined(separator: ", "))).", valueName: "code"))
    var currency: String?

    @Flag(help: "The collection's value per month.")
    var history = false

    @OptionGroup var diagnostics: VerboseOption

    @OptionGroup var query: QueryArguments

    func validate() throws {
        if let currency, !PreferenceKey.currencies.contains(currency.uppercased()) {
            throw ValidationError(
                "--currency takes one of \(PreferenceKey.currencies.joined(separator: ", ")), not \"\(GTIN.displayForm(of: currency))\"")
        }
    }

    func run() throws {
        diagnostics.install("value")
        let stop = refresh ? StopRequest.install(announcement: PriceRefresh.stopping) : nil
        let store = try self.store.open()
        let asked = currency?.uppercased()
        let configured = ConfigurationFile.current().currency
        let status = try stop.map { stop in
            try PriceRefresh.run("value", stop: stop) { access, progress in
                await CollectionValuation(store: store, access: access).refresh(currency: asked ?? configured, progress: progress)
            }
        } ?? 0
        let (history, query) = (self.history, history ? nil : try self.query.query())
        let stored = try QueryArguments.answering {
            try blocking {
                try await CollectionValuation.stored(store: store, asked: asked, configured: configured, history: history, query: query)
            }
        }
        switch stored {
        case .history(let entries):
            let lines = ValueText.history(entries, json: json)
            try json ? StandardStreams.out(jsonLines: lines) : StandardStreams.out(lines: lines)
        case .report(let report, _) where json:
            try StandardStreams.out(jsonLines: [report.json])
        case .report(let report, let accountCurrency):
            if !ValueText.hasFigures(report), status == 0 {
                StandardStreams.errLine("crates value: no figures stored yet: run `crates value --refresh` to ask Discogs")
            }
            let lines = StandardStreams.outputIsTerminal
                ? ValueText.readable(report, accountCurrency: accountCurrency, now: Date())
                : ValueText.lines(report, accountCurrency: accountCurrency, now: Date())
            try StandardStreams.out(lines: lines)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
