import CratesCore
import CratesStore

extension CollectionValuation {
    /// What `crates value` shows of the figures stored, without a request.
    public enum Stored: Sendable {
        /// The collection's value per month (`--history`).
        case history([CollectionStore.ValueHistoryEntry])
        /// The newest figures; `accountCurrency`: in the account's currency, as the last
        /// refresh stored it.
        case report(CollectionValueReport, accountCurrency: Bool)
    }

    /// The figures stored in the currency `asked`, else the `configured` one, else the
    /// account's: the collection's value per month (`history`), else the newest figures of
    /// the copies `query` keeps (nil or empty: every copy). A query narrows the copies shown
    /// and their total; the collection's own value is Discogs' figure for the whole, shown as
    /// it is.
    public static func stored(
        store: CollectionStore, asked: String?, configured: String?, history: Bool, query: RecordQuery?
    ) async throws -> Stored {
        let (code, accountCurrency) = try await currency(asked: asked, configured: configured, store: store)
        if history { return .history(try await store.valueHistory(currency: accountCurrency ? nil : code)) }
        let only: [Int64]? = if let query, !query.isEmpty { try await store.recordIDs(matching: query) } else { nil }
        let report = try await store.valueReport(currency: code ?? "", accountCurrency: accountCurrency, recordIDs: only)
        return .report(report, accountCurrency: accountCurrency)
    }
}
