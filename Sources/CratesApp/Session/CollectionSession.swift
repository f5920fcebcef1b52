import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// The collection UI's work behind the screen: carries out each `SessionRequest` on a task
/// (never on the UI thread), keeps the list's window of the collection up to date, runs the
/// lookup worker and follows the camera daemon, and reports everything as `SessionEvent`s
/// through `post`. It knows nothing of the terminal.
///
/// Its lifecycle, kept in one `State` under one mutex:
/// - It runs from `start()` to `stopped()`, once: nothing starts after the stop.
/// - At most one lookup worker runs. The worker starts and stops only in steps of one
///   chain (`lifecycle`), each step awaiting the one before: the start, each sign-in (stop
///   the old worker, then start one with the new credentials) and the stop happen one at a
///   time, in the order asked, so no sign-in leaves a worker that nobody stops.
/// - Requests run in order on one task (`executor`). Work that waits for Discogs or runs
///   long (a search, an add by release, a choice, a details fetch, a sync, a count) runs on
///   a task of its own, which the session holds in `tasks` until it ends.
/// - `stopped()` stops the observation and the camera, lets the requests already queued
///   run, cancels every task in `tasks`, stops the worker, and returns once all of them
///   have ended.
public final class CollectionSession: Sendable {
    let store: CatalogueStore
    let post: @Sendable (SessionEvent) -> Void
    private let lookups: Bool
    /// The camera daemon's socket; nil with `--no-scanner`.
    private let scanner: ScanSocketPath?
    let undo: UndoLedger
    /// The current place: where what is added goes, and what a place's label changes.
    private let context: ScanContext
    private let requests: AsyncStream<SessionRequest>
    private let requestSink: AsyncStream<SessionRequest>.Continuation
    let state: Mutex<State>

    struct State {
        enum Phase { case created, running, stopped }
        var phase = Phase.created
        var access: DiscogsAccess?
        /// Searches without a barcode, and the releases they found (added or linked from there).
        var finder: ReleaseFinder
        var worker: (worker: LookupWorker, task: Task<Void, Never>)?
        /// The last step of the worker's lifecycle asked for: the next one awaits it.
        var lifecycle: Task<Void, Never>?
        /// Workers whose `run()` has begun and not yet returned.
        var workersRunning = 0
        var executor: Task<Void, Never>?
        /// The tasks started for requests, by a number of their own, until each ends.
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextTask = 0
        var observation: WindowObservation?
        var follower: ScanFollower?
        /// Releases whose full details are being fetched for a person now.
        var fetchingDetails: Set<Int> = []
        /// Whether a Discogs sync runs now (one at a time).
        var syncRunning = false
        /// The last sync's report: a removal asked after it adds to it (`SyncReport.add`).
        var syncReport: SyncReport?
        /// Records added in this session, whose lookup's match says whether Discogs has them.
        var recentAdds: Set<Int64> = []
        /// OAuth between its second and third leg: the sign-in form waits for the code.
        var oauth: OAuthStart?
    }

    /// The local Discogs catalogue: the worker asks it first, and the search (`s`) answers
    /// from it as the person types.
    let catalogue: (any ReleaseCatalogue)?
    /// Where signing in finds the credentials file, the application's key and Discogs.
    let environment: [String: String]
    /// Covers for the details view and the picker; nil when they are off.
    private let covers: CoverDesk?

    /// `covers`: where covers come from (nil: covers are off), drawn by `renderer`.
    public init(
        store: CatalogueStore, discogs: DiscogsAccess?, lookups: Bool, scanner: ScanSocketPath?,
        catalogue: (any ReleaseCatalogue)? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        covers: CoverLibrary? = nil, renderer: (any CoverRendering)? = nil,
        post: @escaping @Sendable (SessionEvent) -> Void
    ) {
        self.store = store
        self.environment = environment
        self.post = post
        self.catalogue = catalogue
        if let covers, let renderer {
            self.covers = CoverDesk(library: covers, renderer: renderer, post: post)
        } else {
            self.covers = nil
        }
        state = Mutex(State(access: discogs, finder: ReleaseFinder(access: discogs, catalogue: catalogue)))
        self.lookups = lookups
        self.scanner = scanner
        undo = UndoLedger(store: store)
        context = ScanContext(store: store)
        (requests, requestSink) = AsyncStream.makeStream(of: SessionRequest.self)
    }

    var discogs: DiscogsAccess? { state.withLock { $0.access } }
    private var finder: ReleaseFinder { state.withLock { $0.finder } }
    /// How many lookup workers run now (at most one).
    var workersRunning: Int { state.withLock { $0.workersRunning } }

    /// Starts watching the collection, the worker and the camera.
    public func start() {
        let post = self.post
        let began = state.withLock { state in
            guard state.phase == .created else { return false }
            state.phase = .running
            state.executor = Task { [requests] in
                for await request in requests { await self.execute(request) }
            }
            return true
        }
        guard began else { return }
        // The list's window of the collection, re-run on every change by any process. The
        // first answer is the first screen (a few milliseconds at 100,000 records).
        do {
            let observation = try store.observeWindow(
                CollectionQuery(window: RowWindow(offset: 0, limit: 200)),
                onError: { error in post(.message("\(error)", isError: true)) },
                onChange: { [weak self] window in
                    post(.window(window))
                    self?.refreshWaiting()
                })
            let stopped = state.withLock { state in
                if state.phase == .running { state.observation = observation }
                return state.phase != .running
            }
            if stopped { observation.cancel() }
        } catch {
            post(.message("\(error)", isError: true))
        }
        if let catalogue { post(.catalogue(catalogue.edition)) }
        lifecycle { await self.startWorker() }
        startScanner()
    }

    /// Queues a request; returns at once. Requests run in order.
    public func perform(_ request: SessionRequest) {
        requestSink.yield(request)
    }

    /// Stops everything; the lookup in hand gets a few seconds, then goes back to the queue.
    /// For the UI thread, which may block; tasks call `stopped()`.
    public func stop() {
        let done = DispatchSemaphore(value: 0)
        Task {
            await stopped()
            done.signal()
        }
        done.wait()
    }

    /// `stop()` for a task: never blocks a thread of the cooperative pool. Returns once
    /// everything the session started has ended.
    public func stopped() async {
        let (observation, follower, executor, tasks) = state.withLock { state in
            state.phase = .stopped
            defer { (state.observation, state.follower) = (nil, nil) }
            return (state.observation, state.follower, state.executor, Array(state.tasks.values))
        }
        observation?.cancel()
        follower?.stop()
        for task in tasks { task.cancel() }
        await covers?.stop()
        // The requests already queued still run (a scan just before quitting is added); what
        // they would start now is not started.
        requestSink.finish()
        await executor?.value
        await lifecycle { await self.stopWorker() }.value
        for task in tasks { await task.value }
    }

    /// New credentials (signed in from the UI), or none (signed out): the worker starts
    /// again with them.
    public func signedIn(_ access: DiscogsAccess) {
        // Searches use the new credentials at once; the worker once the old one has stopped.
        state.withLock { $0.finder = ReleaseFinder(access: access, catalogue: catalogue) }
        lifecycle {
            await self.stopWorker()
            guard self.state.withLock({ state in
                state.access = access
                return state.phase == .running
            }) else { return }
            await self.startWorker()
            self.post(.message(
                access.signedIn ? "Signed in to Discogs as \(access.displayName)" : "Signed out of Discogs", isError: false))
        }
    }

    /// Runs `step` once every lifecycle step asked for before it has ended: the worker's
    /// starts and stops, one at a time, in order.
    @discardableResult
    private func lifecycle(_ step: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        state.withLock { state in
            let previous = state.lifecycle
            let next = Task {
                await previous?.value
                await step()
            }
            state.lifecycle = next
            return next
        }
    }

    /// Runs `work` on a task the session holds until it ends, and cancels when it stops.
    /// Nothing runs once the session has stopped.
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard state.phase != .stopped else { return }
            let number = state.nextTask
            state.nextTask += 1
            // Made under the lock: the task cannot remove itself before it is added.
            state.tasks[number] = Task {
                await work()
                _ = self.state.withLock { $0.tasks.removeValue(forKey: number) }
            }
        }
    }

    // MARK: Requests

    private func execute(_ request: SessionRequest) async {
        do {
            switch request {
            case .add(.label(let code), _, _):
                try await scanned(code)
            case .add(let entry, let method, let allowing):
                // The place is the one current now, in the order of the requests: a record
                // scanned right after a place's label goes in that place.
                let location = context.location
                if case .release = entry {
                    // A release waits for Discogs (and its rate limit): off the serial line,
                    // so that list queries and scans are not held up behind it.
                    spawn { await self.add(entry, method: method, allowing: allowing, into: location) }
                } else {
                    await add(entry, method: method, allowing: allowing, into: location)
                }
            case .query(let query):
                state.withLock { $0.observation }?.update(query)
            case .focus(let id):
                state.withLock { $0.observation }?.focus(id)
            case .delete(let ids):
                let (count, token) = try await undo.delete(ids)
                post(.deleted(count: count, undo: token))
            case .undo(let token):
                switch try await undo.undo(token) {
                case .restored(let count): post(.restored(count: count))
                case .movedBack(let count): post(.message("Moved \(counted(count, "record")) back", isError: false))
                case .edited(let record):
                    post(.message("Edit undone: \(record.subject)", isError: false))
                    if let details = try await store.details(record.id) { post(.details(details)) }
                case nil: break
                }
            case .loadDetails(let id):
                if let details = try await store.details(id) {
                    post(.details(details))
                    if let release = details.release, !release.hasFullDetails {
                        spawn { await self.fetchDetails(release.id, for: id) }
                    }
                } else {
                    post(.message("That record is gone", isError: true))
                }
            case .retry(let id):
                try await store.retry([id])
                nudgeWorker()
            case .choose(let recordID, let releaseID):
                spawn { await self.choose(releaseID, for: recordID) }
            case .openURL(let url):
                openInBrowser(url)
            case .openPage(let id):
                if let url = try await store.details(id)?.release?.url {
                    openInBrowser(url)
                } else {
                    post(.message("No Discogs page yet: the record is not matched", isError: true))
                }
            case .loadGenres:
                post(.genres(try await store.genreSections()))
            case .grade(let recordID, let change):
                try await grade(recordID, change)
            case .sync:
                startSync()
            case .removeFromDiscogs(let instanceIDs):
                startRemoval(instanceIDs)
            case .signIn(let request):
                signIn(request)
            case .loadSyncConflicts:
                post(.syncConflicts(try await store.syncConflicts()))
            case .settleConflicts(let recordIDs, let side):
                startSettling(recordIDs, toward: side)
            case .cover(let request):
                if let covers {
                    covers.ask(request)
                } else {
                    post(.cover(request, .placeholder("covers are off")))
                }
            case .search(let query, let recordID):
                // Waits for Discogs: off the serial line, as an add by release.
                spawn { await self.search(query, for: recordID) }
            case .searchCatalogue(let query, let recordID):
                // A keystroke's: the catalogue only, never a request.
                searchCatalogue(query, for: recordID)
            case .enterByHand(let fields, let recordID):
                try await enterByHand(fields, for: recordID, into: context.location)
            case .edit(let id, let edit):
                let (record, token) = try await undo.edit(id, edit)
                if let token {
                    post(.edited(text: "Saved \(record.subject): \(edit.summary)", undo: token))
                } else {
                    post(.message("Nothing changed", isError: false))
                }
                if let details = try await store.details(id) { post(.details(details)) }
            case .loadNeedsPerson:
                post(.needsPerson(try await store.needingAPerson()))
            case .move(let ids, let to):
                var location: Location?
                if let to { location = try await existingLocation(to) }
                let (count, token) = try await undo.move(ids, to: to)
                post(.moved(count: count, to: location, undo: token))
            case .setLocation(let id):
                let location = try await context.set(id)
                if id != nil, location == nil { post(.message("That place is gone", isError: true)) }
                post(.location(location))
            case .loadLocations:
                post(.locations(try await store.locationTree()))
            case .loadStatistics:
                // Off the serial line (a scan meanwhile is added at once), and in two answers:
                // the totals and the genres first, which fill the first screen in tens of
                // milliseconds, then the other charts (hundreds, at 100,000 records).
                Task {
                    do {
                        self.post(.statistics(try await self.store.statistics(dimensions: [.genre])))
                        var rest = try await self.store.statistics(
                            dimensions: StatisticsDimension.allCases.filter { $0 != .genre })
                        // The value charts, in the currency `crates value` shows.
                        let currency = try await CollectionValuation.currency(
                            asked: nil, configured: ConfigurationFile.current().currency, store: self.store)
                        rest.value = try await self.store.valueCharts(currency: currency.code, accountCurrency: currency.accountCurrency)
                        self.post(.statistics(rest))
                    } catch {
                        self.post(.message("\(error)", isError: true))
                    }
                }
            }
        } catch {
            post(.message("\(error)", isError: true))
        }
    }

    private func add(_ entry: CodeEntry, method: AddMethod, allowing: AddAllowance, into location: Location?) async {
        // A release a search found is added as found, without fetching it again.
        var known: Release?
        if case .release(let id) = entry { known = finder.knownRelease(id) }
        do {
            switch try await RecordAdder(store: store, discogs: discogs).add(
                entry, method: method, allowing: allowing, into: location, known: known)
            {
            case .added(let record, let release):
                post(.added(recordID: record.id))
                state.withLock { _ = $0.recentAdds.insert(record.id) }
                // Said once the record is stored: the UI said only "Adding …".
                let onDiscogs = try await onDiscogsText(release: release, gtin: record.gtin)
                let added = release.map { "Added \($0.displayTitle)" }
                    ?? "Added \(record.subject)" + (location.map { " to \($0.name)" } ?? "")
                post(.message(added + (onDiscogs.map { ": \($0)" } ?? ""), isError: false))
                nudgeWorker()
            case .held(let question):
                if case .moveHere(let move) = question.kind, move.from == nil {
                    // Shelving: a copy in no place goes into the current one at once (undo
                    // puts it back); only a copy in another place is asked about.
                    let (count, token) = try await undo.move([move.recordID], to: move.to.id)
                    post(.moved(count: count, to: move.to, undo: token))
                    post(.message("Put \(move.title) in \(move.to.name): u to undo", isError: false))
                } else {
                    post(.ask(question))
                }
            case .refused(let reason):
                post(.message(reason, isError: true))
            }
        } catch {
            post(.message("\(error)", isError: true))
        }
    }

    /// A crates label: a place's changes the current place, a copy's selects it.
    private func scanned(_ code: LabelCode) async throws(StoreError) {
        switch try await context.scan(code) {
        case .entered(let location):
            post(.location(location))
        case .unchanged:
            break  // the same place again changes nothing
        case .left(let message):
            post(.location(nil))
            post(.message(message, isError: true))
        case .select(let record):
            post(.select(recordID: record.id))
        case .noSuchCopy(let message):
            post(.message(message, isError: true))
        }
    }

    /// Opens `url` in a browser, or says there is none here (no display, or nothing to open
    /// it with), with the address to open elsewhere.
    private func openInBrowser(_ url: String) {
        if ExternalPrograms.openInBrowser(url) {
            post(.message("Opened \(url)", isError: false))
        } else {
            post(.message("No browser here; the page is \(url)", isError: false))
        }
    }

    private func existingLocation(_ id: Int64) async throws(StoreError) -> Location {
        guard let location = try await store.location(id) else { throw .location(.unknownID(id)) }
        return location
    }

    /// The person chose a pressing: as a search found it, else as the catalogue has it,
    /// else fetched in full; then the record is matched to it (its own values kept).
    private func choose(_ releaseID: Int, for recordID: Int64) async {
        guard discogs != nil || catalogue != nil else {
            post(.message(DiscogsAccessProblem.notSignedIn.description, isError: true))
            return
        }
        do {
            let (release, edition) = try await finder.sourcedRelease(releaseID)
            try await store.choose(release, for: recordID, from: edition)
        } catch {
            post(.message("\(error)", isError: true))
        }
    }

    /// The person opened the details of a record whose release was completed from a search
    /// result: its full details (tracklist, credits, identifiers, notes) are fetched at
    /// once, ahead of the lookup queue, kept, and the details shown again. Quietly nothing
    /// when not signed in or when Discogs cannot give them now (the background fetches will).
    private func fetchDetails(_ releaseID: Int, for recordID: Int64) async {
        guard let client = discogs?.client, startFetching(releaseID) else { return }
        defer { state.withLock { _ = $0.fetchingDetails.remove(releaseID) } }
        do {
            let release = try await client.release(id: releaseID, priority: .interactive)
            try await store.storeDetails(release)
            if let details = try await store.details(recordID) { post(.details(details)) }
        } catch {
            SessionLog.warning("details of release \(releaseID): \(error)")
        }
    }

    /// False when the release's details are being fetched already.
    private func startFetching(_ releaseID: Int) -> Bool {
        state.withLock { $0.fetchingDetails.insert(releaseID).inserted }
    }

    /// The search as typed so far, in the catalogue alone: what it has goes back to the UI
    /// at once (an empty answer too: the form says Enter asks Discogs).
    private func searchCatalogue(_ query: ReleaseSearchQuery, for recordID: Int64?) {
        guard let catalogue else { return }
        let found = finder.searchCatalogue(query)
        post(.found(ReleaseSearchAnswer(
            recordID: recordID, query: query, candidates: found?.hits.map(\.candidate) ?? [], requests: 0,
            isComplete: found?.isComplete ?? true, catalogue: catalogue.edition, preview: true)))
    }

    /// A search without a barcode: its candidates, or why there are none, go back to the UI.
    private func search(_ query: ReleaseSearchQuery, for recordID: Int64?) async {
        do {
            let found = try await finder.search(query)
            post(.found(ReleaseSearchAnswer(
                recordID: recordID, query: query, candidates: found.hits.map(\.candidate), requests: found.requests,
                isComplete: found.isComplete, catalogue: found.edition)))
        } catch {
            post(.found(ReleaseSearchAnswer(recordID: recordID, query: query, candidates: [], requests: 0, failure: error.description)))
        }
    }

    /// A record entered by hand: a new one (into the current place), or the record named
    /// (its barcode and place kept).
    private func enterByHand(_ fields: RecordFields, for recordID: Int64?, into location: Location?) async throws {
        if let recordID {
            let record = try await store.enterByHand(recordID, fields)
            post(.message("Entered by hand: \(record.collector.description)", isError: false))
            return
        }
        // The person typed it in full: another copy is what they mean.
        if case .added(let record) = try await RecordAdder(store: store, discogs: discogs).addByHand(
            fields, anotherCopy: true, into: location)
        {
            post(.added(recordID: record.id))
            post(.message("Entered by hand: \(fields.description)", isError: false))
        }
    }

    /// The queue's length for the status line, read after each change (an indexed count).
    private func refreshWaiting() {
        let store = self.store
        let post = self.post
        spawn {
            if let waiting = try? await store.waitingCount() { post(.waiting(waiting)) }
        }
    }

    // MARK: The camera daemon

    /// Follows the daemon's socket on a thread of its own: connects when the daemon is
    /// there, reconnects after it restarts, and turns what it reads into events. Keys and
    /// wedge scans never wait on it.
    private func startScanner() {
        guard let scanner else { return }
        let post = self.post
        let follower = ScanFollower(path: scanner.path) { message in
            switch message {
            case .connected:
                post(.camera(.connected))
            case .event(let event):
                post(.cameraScan(event))
            case .dropped(let error):
                // Never fatal: a daemon speaking a newer dialect, or garbage on the socket.
                SessionLog.warning("camera: dropped a line from \(scanner.path): \(error)")
                post(.message("camera: dropped a malformed line (\(error))", isError: true))
            case .disconnected:
                post(.camera(.noDaemon))
            }
        }
        guard state.withLock({ state in
            guard state.phase == .running else { return false }
            state.follower = follower
            return true
        }) else { return }
        follower.start()
    }

    // MARK: The lookup worker

    /// Starts the worker, unless lookups are off, nobody is signed in, or the session has
    /// stopped. A step of `lifecycle` only: the worker before it has stopped.
    private func startWorker() async {
        guard lookups else {
            post(.discogs(.lookupsOff))
            return
        }
        // Without an account the catalogue still answers what it knows (no request): the
        // rest waits, and the status line says to sign in.
        guard let discogs, discogs.signedIn || catalogue != nil else {
            post(.discogs(.notSignedIn))
            return
        }
        let signedIn = discogs.signedIn
        let username = discogs.username.map(ControlCharacters.cleaned)
        // The collection UI also fetches full details in the background, from the requests
        // the lookups leave over.
        var policy = LookupWorker.Policy()
        policy.backgroundDetails = signedIn
        let worker = LookupWorker(
            queue: store, lookup: DiscogsBarcodeLookup(client: discogs.client), catalogue: catalogue, asksDiscogs: signedIn,
            details: store, policy: policy)
        let post = self.post
        state.withLock { state in
            guard state.phase == .running, state.worker == nil else { return }
            state.workersRunning += 1
            let task = Task {
                let reports = Task {
                    for await event in worker.events {
                        if case .settled(let recordID, .matched, _) = event {
                            await self.announceOwnership(recordID: recordID)
                            continue
                        }
                        guard case .status(let status) = event, signedIn else { continue }
                        post(.discogs(DiscogsStatus(status, username: username)))
                        // Not counting the records in hand: the waiting count comes from the
                        // store after each change (`refreshWaiting`).
                    }
                }
                post(.discogs(signedIn ? .signedIn(username: discogs.displayName) : .notSignedIn))
                await worker.run()
                self.state.withLock { $0.workersRunning -= 1 }
                await reports.value
            }
            state.worker = (worker, task)
        }
    }

    private func nudgeWorker() {
        state.withLock { $0.worker?.worker }?.nudge()
    }

    /// Stops the worker, waiting at most a few seconds for the lookup in hand: cut short, it
    /// goes back to the queue (`LookupWorker.stop`). A step of `lifecycle` only.
    private func stopWorker() async {
        let running = state.withLock { state in
            defer { state.worker = nil }
            return state.worker
        }
        guard let (worker, task) = running else { return }
        await worker.stop()
        await task.value
    }
}
