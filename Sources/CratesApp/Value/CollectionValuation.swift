import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates value`: what the collection is worth as Discogs prices it, from the figures
/// stored (with their date), and asked again with `refresh`.
///
/// A refresh asks, at background priority and the rate Discogs allows (the client's one
/// `RateLimiter`; a 429 is waited out and sent again): the marketplace stats of each release
/// in the collection, the price suggestions of each release a copy with a media grade is of
/// (once: an account without seller settings gets none, for any release), then the
/// collection's own value. Each answer is stored as it comes, so a refresh stopped (Ctrl-C)
/// keeps what it was told.
public struct CollectionValuation: Sendable {
    /// What a refresh came to.
    public struct Outcome: Sendable {
        /// For standard error: what Discogs would not tell (each said once).
        public var messages: [String] = []
        public var requests = 0
        /// 0: every figure asked; 3: not signed in, or refused; 4: Discogs could not be
        /// reached, or failed past its retries; 128+n: stopped by signal n.
        public var exitStatus: Int32 = 0
        /// The currency Discogs' answers were in, when crates did not name one.
        public var accountCurrency: String?
    }

    public let store: CatalogueStore
    public let access: DiscogsAccess
    public let now: @Sendable () -> Date

    public init(store: CatalogueStore, access: DiscogsAccess, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.access = access
        self.now = now
    }

    /// The currency to show: `asked` (`--currency`), else config.json's, else the one the
    /// figures stored last were in; `accountCurrency` when it is not named by the person
    /// (then figures of a release fetch, in the account's currency, count too).
    public static func currency(
        asked: String?, configured: String?, store: CatalogueStore
    ) async throws -> (code: String?, accountCurrency: Bool) {
        if let asked { return (asked, false) }
        if let configured { return (configured, false) }
        return (try await store.storedValueCurrency(), true)
    }

    /// Asks Discogs again for every figure; `currency` nil asks in the account's.
    public func refresh(
        currency: String?, stop: StopRequest? = nil, progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async -> Outcome {
        var outcome = Outcome()
        guard access.signedIn, let username = access.username else {
            outcome.messages.append("\(DiscogsAccessProblem.notSignedIn)")
            outcome.exitStatus = 3
            return outcome
        }
        let copies: [CatalogueStore.ValuedCopy]
        do {
            copies = try await store.valuedCopies()
        } catch {
            outcome.messages.append("\(error)")
            outcome.exitStatus = 1
            return outcome
        }
        var releases: [Int] = []
        var graded: [Int: [CatalogueStore.ValuedCopy]] = [:]
        for copy in copies {
            if !releases.contains(copy.releaseID) { releases.append(copy.releaseID) }
            if copy.grade != nil { graded[copy.releaseID, default: []].append(copy) }
        }
        let gradedReleases = releases.filter { graded[$0] != nil }
        var total = releases.count + gradedReleases.count + 1
        var done = 0
        progress(done, total)
        var learned: String?
        let client = access.client

        /// The failure that ends the refresh, or nil to go on.
        func stopOn(_ error: DiscogsError) -> Bool {
            switch error {
            case .unauthorized:
                outcome.messages.append("\(error)")
                outcome.exitStatus = 3
            default:
                outcome.messages.append("\(error); the figures asked so far are kept (run it again to go on)")
                outcome.exitStatus = 4
            }
            return true
        }
        func stopped() -> Bool {
            guard let stop, stop.isRequested else { return false }
            outcome.messages.append("Stopped: the figures asked so far are kept.")
            outcome.exitStatus = stop.exitStatus
            return true
        }

        for releaseID in releases {
            if stopped() { return outcome }
            do {
                let stats = try await RequestPriority.at(.background) { () async throws(DiscogsError) in
                    try await client.marketplaceStats(releaseID: releaseID, currency: currency)
                }
                outcome.requests += 1
                if let code = stats.lowestPrice?.currency { learned = learned ?? code }
                try await store.storeReleasePrice(
                    releaseID: releaseID, currency: stats.lowestPrice?.currency ?? currency ?? learned ?? "",
                    lowestPrice: stats.lowestPrice?.value, forSale: stats.numForSale, at: now())
            } catch let error as DiscogsError {
                outcome.requests += 1
                if case .notFound = error {
                    outcome.messages.append("release \(releaseID): Discogs has no marketplace figures for it")
                } else if stopOn(error) {
                    return outcome
                }
            } catch {
                outcome.messages.append("\(error)")
                outcome.exitStatus = 1
                return outcome
            }
            done += 1
            progress(done, total)
        }

        var accountCurrency = currency == nil ? learned : nil
        for releaseID in gradedReleases {
            if stopped() { return outcome }
            do {
                let answer = try await RequestPriority.at(.background) { () async throws(DiscogsError) in
                    try await client.priceSuggestions(releaseID: releaseID)
                }
                outcome.requests += 1
                guard case .suggestions(let suggestions) = answer else {
                    // Said once: without seller settings no release has a suggestion.
                    outcome.messages.append(
                        "Discogs suggests no prices for this account (it has no seller settings): "
                            + "set them on Discogs to see a suggested price for each copy's grade")
                    total -= gradedReleases.count - (done - releases.count) - 1
                    done += 1
                    progress(done, total)
                    break
                }
                for copy in graded[releaseID] ?? [] {
                    guard let grade = copy.grade, let price = suggestions.byGrade[grade] else { continue }
                    accountCurrency = price.currency
                    try await store.storeCopyPrice(recordID: copy.recordID, grade: grade, price: price, at: now())
                }
            } catch let error as DiscogsError {
                outcome.requests += 1
                if case .notFound = error {} else if stopOn(error) { return outcome }
            } catch {
                outcome.messages.append("\(error)")
                outcome.exitStatus = 1
                return outcome
            }
            done += 1
            progress(done, total)
        }

        if stopped() { return outcome }
        do {
            let value = try await RequestPriority.at(.background) { () async throws(DiscogsError) in
                try await client.collectionValue(username: username)
            }
            outcome.requests += 1
            // Discogs writes the collection's value in the account's currency.
            try await store.storeCollectionValue(value, currency: accountCurrency ?? "", at: now())
        } catch let error as DiscogsError {
            outcome.requests += 1
            if case .forbidden = error {
                outcome.messages.append("Discogs tells the collection's value only to its owner: \(error)")
            } else if stopOn(error) {
                return outcome
            }
        } catch {
            outcome.messages.append("\(error)")
            outcome.exitStatus = 1
            return outcome
        }
        done += 1
        progress(done, total)
        outcome.accountCurrency = accountCurrency
        return outcome
    }
}
