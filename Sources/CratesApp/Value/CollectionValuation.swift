import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates value`: what the collection is worth as Discogs prices it, from the figures
/// stored (with their date), and asked again with `refresh`.
///
/// A refresh asks, at background priority and the rate Discogs allows (the client's one
/// `RateLimiter`; a 429 is waited out and sent again): the account's currency from its
/// profile when crates names none, the marketplace stats of each release in the collection,
/// the price suggestions of each release a copy with a media grade is of (once: an account
/// without seller settings gets none, for any release), then the collection's own value.
/// Each answer is stored as it comes, so a refresh stopped (Ctrl-C) keeps what it was told.
public struct CollectionValuation: Sendable {
    /// What a refresh came to.
    public struct Outcome: Sendable {
        /// For standard error: what Discogs would not tell (each said once).
        public var messages: [String] = []
        public var requests = 0
        /// How it ended.
        public var ending = Ending.complete
        /// The account's currency (its profile's, else the one Discogs' answers were in),
        /// when crates did not name one.
        public var accountCurrency: String?
    }

    /// How a refresh of figures ended.
    public enum Ending: Sendable, Hashable {
        /// Every figure asked.
        case complete
        /// The collection could not be read or written.
        case collectionFailed
        /// Not signed in, or Discogs refused the credentials.
        case refused
        /// Discogs could not be reached, or failed past its retries: the figures asked so
        /// far are kept.
        case unreachable
        /// A stop was asked for: the figures asked so far are kept.
        case stopped
    }

    /// The rate limiter's priority of a refresh's requests: never ahead of a lookup or a
    /// person, and within background work's share of the window.
    public static let priority = RateLimiter.Priority.background

    public let store: CollectionStore
    public let access: DiscogsAccess
    /// The clock the stored figures are dated by.
    public let timeline: Timeline

    public init(store: CollectionStore, access: DiscogsAccess, timeline: Timeline = Timeline()) {
        self.store = store
        self.access = access
        self.timeline = timeline
    }

    /// The currency to show: `asked` (`--currency`), else config.json's, else the one the
    /// figures stored last were in (a refresh stores them in the account's); `accountCurrency`
    /// when it is not named by the person (then figures of a release fetch, in the account's
    /// currency, count too).
    public static func currency(
        asked: String?, configured: String?, store: CollectionStore
    ) async throws -> (code: String?, accountCurrency: Bool) {
        if let asked { return (asked, false) }
        if let configured { return (configured, false) }
        return (try await store.storedValueCurrency(), true)
    }

    /// Asks Discogs again for every figure; `currency` nil asks in the account's, read from
    /// its profile (one request a refresh).
    ///
    /// Cancelling the task stops the refresh (`stopped`, the figures asked so far kept): a
    /// wait for the rate window ends at once (up to a minute at a full window), but a
    /// request already sent is not cut short, and its answer is stored (`RateWaitStop.finishing`).
    public func refresh(
        currency: String?, progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async -> Outcome {
        await RateWaitStop.finishing { waitStop in await refreshing(currency: currency, waitStop: waitStop, progress: progress) }
    }

    private func refreshing(
        currency: String?, waitStop: RateWaitStop, progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void
    ) async -> Outcome {
        var outcome = Outcome()
        guard access.signedIn, let username = access.username else {
            outcome.messages.append("\(DiscogsAccessError.notSignedIn)")
            outcome.ending = .refused
            return outcome
        }
        let copies: [CollectionStore.ValuedCopy]
        do {
            copies = try await store.valuedCopies()
        } catch {
            outcome.messages.append(error.description)
            outcome.ending = .collectionFailed
            return outcome
        }
        var releases: [Int] = []
        var graded: [Int: [CollectionStore.ValuedCopy]] = [:]
        for copy in copies {
            if !releases.contains(copy.releaseID) { releases.append(copy.releaseID) }
            if copy.grade != nil { graded[copy.releaseID, default: []].append(copy) }
        }
        let gradedReleases = releases.filter { graded[$0] != nil }
        var total = (currency == nil ? 1 : 0) + releases.count + gradedReleases.count + 1
        var done = 0
        progress(done, total)
        let client = access.client

        func stopped() -> Bool {
            guard waitStop.isStopped else { return false }
            outcome.messages.append("Stopped: the figures asked so far are kept.")
            outcome.ending = .stopped
            return true
        }
        /// One request at the refresh's priority, counted whether Discogs answered or not.
        func ask<T>(_ request: () async throws(DiscogsError) -> T) async throws(DiscogsError) -> T {
            defer { outcome.requests += 1 }
            return try await RequestPriority.at(Self.priority, waitsEndedBy: waitStop, request)
        }
        /// One step of the refresh: its request (`ask`) and the storing of the answer. A
        /// Discogs error goes on or stops the refresh as `expected` says (by default it stops
        /// it: 3 refused, else 4); a failure to store ends it with 1. Each is said in crates'
        /// words, never a system error's raw text. False when the refresh ends; the step
        /// counts as done otherwise.
        func step(expected: (DiscogsError) -> Course = { _ in .stop }, _ body: () async throws -> Void) async -> Bool {
            if stopped() { return false }
            do {
                try await body()
            } catch let error as DiscogsError {
                // A wait the stop ended: said as a stop, not as Discogs' failure.
                if stopped() { return false }
                switch expected(error) {
                case .goOn(let message):
                    if let message { outcome.messages.append(message) }
                case .stop:
                    if case .unauthorized = error {
                        outcome.messages.append(error.description)
                        outcome.ending = .refused
                    } else {
                        outcome.messages.append("\(error.description); the figures asked so far are kept (run it again to go on)")
                        outcome.ending = .unreachable
                    }
                    return false
                }
            } catch {
                outcome.messages.append(SystemError.describe(error))
                outcome.ending = .collectionFailed
                return false
            }
            done += 1
            progress(done, total)
            return true
        }

        // The account's currency, in which Discogs writes the collection's value and its
        // price suggestions; without it (a profile that does not say), the one its answers
        // come in.
        var accountCurrency: String?
        if currency == nil {
            let read = await step(expected: { error in Self.profileUnavailable(error) ? .goOn(saying: nil) : .stop }) {
                let profile = try await ask { () async throws(DiscogsError) in try await client.profile(username: username) }
                accountCurrency = profile.currency.map { $0.uppercased() }.flatMap { PreferenceKey.currencies.contains($0) ? $0 : nil }
            }
            guard read else { return outcome }
        }
        let asked = currency ?? accountCurrency

        var learned: String?
        for releaseID in releases {
            // A release Discogs has no figures for (404) is stored as asked, with none:
            // "no figures on Discogs", not "not asked yet".
            let next = await step(expected: { error in
                Self.unreadable(error, "release \(releaseID): Discogs' marketplace figures for it")
            }) {
                let stats = try await ask { () async throws(DiscogsError) in
                    try await MarketplaceFigures.stats(of: releaseID, currency: asked, client: client, waitStop: waitStop)
                }
                if let code = stats.lowestPrice?.currency { learned = learned ?? code }
                try await store.storeReleasePrice(
                    releaseID: releaseID, currency: stats.lowestPrice?.currency ?? asked ?? learned ?? "",
                    lowestPrice: stats.lowestPrice?.value, forSale: stats.numForSale, at: timeline.date)
            }
            guard next else { return outcome }
        }

        if currency == nil, accountCurrency == nil { accountCurrency = learned }
        for (index, releaseID) in gradedReleases.enumerated() {
            var noSellerSettings = false
            let next = await step(expected: { error in
                if case .notFound = error { return .goOn(saying: nil) }
                return Self.unreadable(error, "release \(releaseID): Discogs' price suggestions for it")
            }) {
                let answer = try await ask { () async throws(DiscogsError) in try await client.priceSuggestions(releaseID: releaseID) }
                guard case .suggestions(let suggestions) = answer else {
                    noSellerSettings = true
                    return
                }
                for copy in graded[releaseID] ?? [] {
                    guard let grade = copy.grade, let price = suggestions.byGrade[grade] else { continue }
                    accountCurrency = price.currency
                    try await store.storeCopyPrice(recordID: copy.recordID, grade: grade, price: price, at: timeline.date)
                }
            }
            guard next else { return outcome }
            if noSellerSettings {
                // Said once: without seller settings no release has a suggestion.
                outcome.messages.append(
                    "Discogs suggests no prices for this account (it has no seller settings): "
                        + "set them on Discogs to see a suggested price for each copy's grade")
                total -= gradedReleases.count - index - 1
                progress(done, total)
                break
            }
        }

        let valued = await step(expected: { error in
            if case .forbidden = error { return .goOn(saying: "Discogs tells the collection's value only to its owner: \(error.description)") }
            return Self.unreadable(error, "Discogs' collection value")
        }) {
            let value = try await ask { () async throws(DiscogsError) in try await client.collectionValue(username: username) }
            // Discogs writes the collection's value in the account's currency.
            try await store.storeCollectionValue(value, currency: accountCurrency ?? "", at: timeline.date)
        }
        guard valued else { return outcome }
        outcome.accountCurrency = accountCurrency
        return outcome
    }

    /// An answer that does not read as figures (a price that is text, a negative or absurd
    /// figure: `MarketplaceFigure`) is that one figure's fault, and Discogs' every time it is
    /// asked: skipped and named, so that the rest of the refresh, and the next, still come
    /// in. Any other error stops the refresh.
    static func unreadable(_ error: DiscogsError, _ what: String) -> Course {
        guard case .malformedBody = error else { return .stop }
        return .goOn(saying: "\(what) cannot be read (a figure that is none: text, negative or absurd): skipped, the rest kept")
    }

    /// What a Discogs error does to a step of a refresh.
    enum Course {
        /// The refresh goes on, saying so to the person when there are words.
        case goOn(saying: String?)
        case stop
    }

    /// A profile Discogs does not show (gone, or not this account's): the currency is then
    /// the one the answers come in, as without the profile.
    static func profileUnavailable(_ error: DiscogsError) -> Bool {
        switch error {
        case .notFound, .forbidden: true
        default: false
        }
    }
}
