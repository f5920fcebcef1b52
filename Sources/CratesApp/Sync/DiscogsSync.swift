import CratesCore
import CratesNet
import CratesStore
import Foundation

/// `crates sync` (and `S` in the collection UI): the collection and the signed-in user's
/// Discogs collection kept as one, in both directions.
///
/// 1. **Reconcile.** An add a killed sync had sent (an outbox entry marked sent) is looked
///    for first, through the release's instances (`GET …/collection/releases/{id}`): found,
///    it is linked; not found, it is planned again. Never a second instance.
/// 2. **List.** The fields (to read conditions and notes by name), the folders, then every
///    instance of folder 0, 100 a page, oldest first (`sort=added`, the one order that stays
///    put while the collection grows): one page in memory at a time.
/// 3. **Each page** (`DiscogsSync+Page`): a linked instance is merged field by field against
///    the values of the last sync (`CopyMerge`); an instance not linked is linked to the
///    oldest copy of its release not linked yet, else pulled as a new copy (release data
///    from `basic_information`, no request per release).
/// 4. **After the listing**: when the listing added up (`CollectionListingTally`: the pages
///    agree, and showed every copy Discogs counted), linked instances it did not show are
///    flagged "removed on Discogs" (never deleted). A listing that does not add up is read
///    again, up to `listingReadings` times; if it still does not, no copy it did not show
///    is flagged, added again or added at all (an unseen instance may be any copy's), and
///    the sync ends with `incompleteListing`. Copies deleted in crates are removed on
///    Discogs with `--delete`, otherwise reported; copies removed on Discogs are added
///    there again with `--restore-removed`, otherwise reported.
/// 5. **Push** (`DiscogsSync+Push`): the copies matched to a release and on no instance are
///    added, then the changed fields written, each through the outbox: committed before it
///    is sent, deleted once Discogs has answered.
///
/// Every request goes through the client's one rate limiter, and is sent again after a
/// transient failure (a 5xx, a timeout, an answer cut short) as lookups are (`RequestRetry`):
/// a listing goes on from the page that failed. An add whose answer was lost is looked for
/// among its release's instances before it is sent again. A second sync right after sends
/// only the listing requests and writes nothing. A second sync at the same time waits for
/// the first (`SyncLease`): two carrying out one outbox would send its adds twice.
public struct DiscogsSync: Sendable {
    public struct Options: Sendable, Hashable {
        /// Take Discogs' side: new instances become copies, Discogs' changes come in.
        public var pull = true
        /// Send crates' side: new copies are added, crates' changes written.
        public var push = true
        /// Say what each side would get; write nothing, on either side.
        public var dryRun = false
        /// The folder new copies go to (an id or a name); nil: the config's, else 1.
        public var folder: String?
        /// Remove on Discogs the instances of copies deleted in crates.
        public var deleteOnDiscogs = false
        /// Which side wins a conflict (a value changed differently on both sides); nil:
        /// neither, the conflict is listed and kept for a person to settle.
        public var prefer: SyncPreference?
        /// Add back to Discogs, as new instances, the copies found removed there (else they
        /// are flagged "removed on Discogs" and listed). Apart from `prefer`: a removal is not
        /// a conflict of values, and settling conflicts must never put back on Discogs a
        /// copy the person removed there.
        public var restoreRemoved = false

        public init(
            pull: Bool = true, push: Bool = true, dryRun: Bool = false, folder: String? = nil, deleteOnDiscogs: Bool = false,
            prefer: SyncPreference? = nil, restoreRemoved: Bool = false
        ) {
            self.pull = pull
            self.push = push
            self.dryRun = dryRun
            self.folder = folder
            self.deleteOnDiscogs = deleteOnDiscogs
            self.prefer = prefer
            self.restoreRemoved = restoreRemoved
        }
    }

    public let store: CollectionStore
    public let access: DiscogsAccess
    /// The config's folder, used when the options name none.
    public let configuredFolder: SyncFolder.Configured
    /// The pauses before sending a failed request again (`RequestRetry.pauses`).
    public let retryPauses: [Double]
    let progress: @Sendable (SyncStatus) -> Void

    /// How many times the listing is read before a listing that does not add up is taken
    /// as it is (and nothing it did not show is changed).
    public static let listingReadings = 3

    public init(
        store: CollectionStore, access: DiscogsAccess, configuredFolder: SyncFolder.Configured = .none,
        retryPauses: [Double] = RequestRetry.shortPauses, progress: @escaping @Sendable (SyncStatus) -> Void = { _ in }
    ) {
        self.store = store
        self.access = access
        self.configuredFolder = configuredFolder
        self.retryPauses = retryPauses
        self.progress = progress
    }

    /// Runs one sync. Never throws: a failure is the report's `failure`, with what was done
    /// before it (everything done is stored, and a re-run goes on from there).
    public func run(_ options: Options) async -> SyncReport {
        var run = SyncRun(sync: self, options: options)
        await run.execute()
        progress(.idle)
        return run.report
    }

    /// Removes these instances from the Discogs collection (copies deleted in crates that
    /// the person chose to remove there too), through the outbox.
    public func removeFromDiscogs(instanceIDs: [Int64]) async -> SyncReport {
        var run = SyncRun(sync: self, options: Options(pull: false, push: true, deleteOnDiscogs: true))
        await run.remove(instanceIDs)
        progress(.idle)
        return run.report
    }
}

/// One sync's state: the client that counts its requests, who is synced, the page's field
/// map, and the report being written.
struct SyncRun {
    let sync: DiscogsSync
    let options: DiscogsSync.Options
    let client: DiscogsClient
    let counter: CountingTransport
    var store: CollectionStore { sync.store }
    /// Every request of the run goes through it: failures count in a row across requests.
    var retry: RequestRetry
    var report = SyncReport()
    var username = ""
    var fields = DiscogsCollectionFieldMap(fields: [])
    /// Instances a dry run found for interrupted adds: linked in a real run.
    var reconciledInDryRun: Set<Int64> = []
    /// Copies a dry run has linked (it writes nothing, so the store does not know).
    var claimed: Set<Int64> = []
    /// The first sync of this collection: the account is recorded once Discogs has let it in.
    var recordAccount = false
    /// Instances whose page was applied in this run: a second reading of the listing does
    /// not apply them again.
    var applied: Set<Int64> = []
    /// Why the listing did not add up after every reading; nil when it did.
    var listingProblem: String?
    /// Wants whose values changed here and go to Discogs (decided page by page).
    var wantEdits: [Int] = []

    init(sync: DiscogsSync, options: DiscogsSync.Options) {
        self.sync = sync
        self.options = options
        let base = sync.access.client
        counter = CountingTransport(base.transport)
        var client = DiscogsClient(transport: counter, endpoints: base.endpoints, credentials: base.credentials, rateLimiter: base.rateLimiter)
        client.maximumThrottledAttempts = base.maximumThrottledAttempts
        self.client = client
        retry = RequestRetry(pauses: sync.retryPauses)
        report.dryRun = options.dryRun
    }

    mutating func execute() async {
        defer { report.requests = counter.count }
        var lease: SyncLease?
        do {
            // A folder setting that cannot be read must not send copies to a folder the
            // person did not mean: refused before anything is sent.
            if options.push, options.folder == nil, case .unreadable(let problem) = sync.configuredFolder {
                throw SyncError.folder(problem)
            }
            try await signIn()
            // A dry run writes nothing: it needs no lease, and never waits.
            if !options.dryRun { lease = try await SyncLease.take(store, progress: sync.progress) }
            try await reconcile()
            if !options.dryRun { try await store.discardUnsentOutbox() }
            fields = DiscogsCollectionFieldMap(fields: try await send { c, u async throws(DiscogsError) in try await c.collectionFields(username: u) })
            // Discogs has shown this user the collection's own fields: it is theirs.
            if recordAccount { try await store.setDiscogsAccount(username) }
            let folders = try await send { c, u async throws(DiscogsError) in try await c.collectionFolders(username: u) }
            if !options.dryRun { try await store.setDiscogsFolders(folders) }
            let target: Int
            switch SyncFolder.resolve(options.folder ?? sync.configuredFolder.folder, in: folders) {
            case .success(let id): target = id
            case .failure(let failure): throw failure
            }
            report.folder = folders.first { $0.id == target }?.name ?? "folder \(target)"
            let listing = try await readListing()
            listingProblem = listing.problem
            try await afterListing(listing)
            try await push(to: target)
            try await syncWantlist()
            if let listingProblem { throw SyncError.incompleteListing(listingProblem, readings: DiscogsSync.listingReadings) }
            if !options.dryRun { try await store.markDiscogsSyncCompleted(at: Date()) }
        } catch {
            report.failure = SyncError.from(error)
        }
        await lease?.release()
    }

    mutating func remove(_ instanceIDs: [Int64]) async {
        defer { report.requests = counter.count }
        var lease: SyncLease?
        do {
            try await signIn()
            lease = try await SyncLease.take(store, progress: sync.progress)
            let wanted = Set(instanceIDs)
            let links = try await store.linksDeletedInCrates().filter { wanted.contains($0.instanceID) }
            try await store.planRemoves(links)
            try await drainOutbox()
        } catch {
            report.failure = SyncError.from(error)
        }
        await lease?.release()
    }

    /// One request through the run's retry: sent again after a transient failure while its
    /// pauses last. `request` gets the client and the username.
    mutating func send<T: Sendable>(
        _ request: @escaping @Sendable (DiscogsClient, String) async throws(DiscogsError) -> T
    ) async throws(DiscogsError) -> T {
        let (client, username) = (self.client, self.username)
        return try await retry.send { () async throws(DiscogsError) -> T in try await request(client, username) }
    }

    /// Who the sync is for, checked against the account the collection was synced with.
    mutating func signIn() async throws {
        guard sync.access.signedIn else { throw SyncError.notSignedIn }
        if let known = sync.access.username, !known.isEmpty {
            username = known
        } else {
            username = try await send { c, _ async throws(DiscogsError) in try await c.identity().username }
        }
        report.username = username
        let synced = try await store.discogsAccount()
        if let synced, synced.lowercased() != username.lowercased() {
            throw SyncError.otherAccount(synced: synced, signedIn: username)
        }
        recordAccount = synced == nil && !options.dryRun
    }

    // MARK: The listing

    /// Reads every page of folder 0, applying each as it comes, until a reading adds up or
    /// `listingReadings` have not; returns the last reading (its instance ids: 8 bytes a
    /// copy, the one thing kept across pages).
    private mutating func readListing() async throws -> CollectionListingTally {
        var tally = CollectionListingTally()
        var firstProblem: String?
        for _ in 1...DiscogsSync.listingReadings {
            tally = CollectionListingTally()
            var pages = client.collectionPages(username: username)
            sync.progress(.reading(done: 0, total: nil))
            while let page = try await pages.next(retrying: &retry) {
                let instances = tally.add(page).filter { applied.insert($0.instanceID).inserted }
                let context = try await store.syncContext(for: instances, excluding: claimed)
                let changes = plan(instances, context: context)
                if !options.dryRun {
                    let pulled = try await store.applySyncPage(changes)
                    // Instances another sync, running at once, pulled first are not pulled again.
                    report.pulled -= changes.pulled.count - pulled.count
                }
                sync.progress(.reading(done: tally.seen.count, total: pages.itemCount))
            }
            if tally.isComplete { break }
            firstProblem = firstProblem ?? tally.problem
        }
        if tally.isComplete, let firstProblem {
            report.notices.append("The listing did not add up at first (\(firstProblem)), so it was read again: the second reading did.")
        }
        return tally
    }

    /// Flags what a listing that added up did not show, and settles what was deleted in
    /// crates. A listing that did not add up flags nothing and adds nothing back.
    private mutating func afterListing(_ listing: CollectionListingTally) async throws {
        var gone: [CollectionStore.SyncLink] = []
        if listing.isComplete {
            gone = try await store.instancesGone(notIn: listing.seen, flag: !options.dryRun)
        }
        report.newlyRemoved = gone.filter { $0.copy != nil && !$0.removed }.count
        var removed = try await store.linksRemovedOnDiscogs()
        if options.dryRun {
            // Not flagged by a dry run: list what a real one would flag.
            removed += gone.filter { $0.copy != nil && !$0.removed }
        }
        if options.restoreRemoved, options.push, listing.isComplete, !removed.isEmpty {
            // Asked for: the copies go back to Discogs as new instances.
            if options.dryRun {
                report.pushed += removed.count
                report.planned += removed.map { "would add again to Discogs: \($0.recordID) \(SyncReport.clean($0.title))" }
            } else {
                try await store.forgetLinks(removed.map(\.instanceID))
            }
            removed = []
        }
        report.removedOnDiscogs = removed.map { SyncListedCopy(recordID: $0.recordID, instanceID: $0.instanceID, title: $0.title) }

        report.missingHere = try await store.linksMissingTheirCopy().map {
            SyncListedCopy(recordID: $0.recordID, instanceID: $0.instanceID, title: $0.title)
        }
        let deleted = try await store.linksDeletedInCrates()
        if options.deleteOnDiscogs, options.push {
            if options.dryRun {
                report.removedThere += deleted.count
                report.planned += deleted.map { "would remove from Discogs: \(SyncReport.clean($0.title)) (instance \($0.instanceID))" }
            } else {
                try await store.planRemoves(deleted)
            }
        } else {
            report.deletedHere = deleted.map { SyncListedCopy(recordID: nil, instanceID: $0.instanceID, title: $0.title) }
        }
    }
}
