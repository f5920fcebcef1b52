import CratesApp
import CratesCore
import CratesNet
import CratesStore
import CratesTUI

/// The collection UI's wiring: the UI loop (CratesTUI) on this, the main thread, and the
/// session (CratesApp) behind it, talking through the inbox.
enum CollectionUI {
    /// Runs until the user quits; returns the signal that ended it, if one did. `preferences`:
    /// config.json as crates read it at start (not read again here); what is wrong with it is
    /// said again on the status line.
    static func run(
        store: CollectionStore, discogs: DiscogsAccess?, lookups: Bool, scanner: ScanSocketPath?,
        catalogue: (any ReleaseCatalogue)? = nil, covers: Bool = true, checking: Bool = false, preferences: Preferences
    ) -> Int32? {
        let inbox = Inbox()
        // Only to write the order chosen back (`rememberOrder`).
        let configuration = try? ConfigurationFile()
        let warnings = ConfigurationFile.startupWarnings(preferences)
        if let warning = warnings.first {
            let more = warnings.count > 1 ? " (and \(warnings.count - 1) more: see `crates config`)" : ""
            inbox.post(.session(.message(warning + more, isError: true)))
        }
        // Covers come from the cache on disk, else Discogs; shown unless `--no-covers` or
        // the configuration's `covers` says no (`I` shows them all the same).
        let library = CoverCache.configured(limitBytes: preferences.coverCacheBytes).map {
            CoverLibrary(cache: $0, budget: CoverBudget(cache: $0), store: store, access: discogs)
        }
        let session = CollectionSession(
            store: store, discogs: discogs, lookups: lookups, scanner: scanner, catalogue: catalogue,
            covers: library, renderer: CoverRenderers.terminal, post: { inbox.post(.session($0)) })
        session.start()
        let runner = AppRunner(
            inbox: inbox, order: preferences.sort, covers: covers && preferences.covers, checking: checking,
            perform: { command in
                switch command {
                case .session(let request): session.perform(request)
                // Kept as the configuration's `sort`, so the next run (and `crates list`) starts
                // with it. Never fails the UI: a file that cannot be written (or is not JSON,
                // and is never written over) costs only the order, artist again next time.
                case .rememberOrder(let order): _ = try? configuration?.set(.sort, to: order.rawValue)
                default: break
                }
            })
        let signal = runner.run()
        session.stop()
        return signal
    }
}
