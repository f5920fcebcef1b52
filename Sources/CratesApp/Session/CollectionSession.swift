import CratesCore
import CratesNet
import CratesStore
import Foundation
import Synchronization

/// The collection UI's work behind the screen: carries out each `SessionRequest` on a task
/// (never on the UI thread), keeps the list's window of the collection up to date, runs the
/// lookup worker and follows the camera daemon, and reports everything as `SessionEvent`s
/// through `post`. It knows nothing of the terminal.
public final class CollectionSession: Sendable {
    let store: CatalogueStore
    let post: @Sendable (SessionEvent) -> Void
    private let access: Mutex<DiscogsAccess?>
    private let lookups: Bool
    /// The camera daemon's socket; nil with `--no-scanner`.
    private let scanner: ScanSocketPath?
    private let follower = Mutex<ScanFollower?>(nil)
    private let undo: UndoLedger
    /// The current place: where what is added goes, and what a place's label changes.
    private let context: ScanContext
    private let worker = Mutex<(worker: LookupWorker?, task: Task<Void, Never>?)>((nil, nil))
    private let observation = Mutex<WindowObservation?>(nil)
    private let requests: AsyncStream<SessionRequest>
    private let requestSink: AsyncStream<SessionRequest>.Continuation
    private let executor = Mutex<Task<Void, Never>?>(nil)
    /// Releases whose full details are being fetched for a person now.
    private let fetchingDetails = Mutex<Set<Int>>([])
    /// Searches without a barcode, and the releases they found (added or linked from there).
    private let finder: Mutex<ReleaseFinder>
    /// Whether a Discogs sync runs now (one at a time).
    let syncRunning = Mutex(false)
    /// Records added in this session, whose lookup's match says whether Discogs has them.
    let recentAdds = Mutex<Set<Int64>>([])

    public init(
        store: CatalogueStore, discogs: DiscogsAccess?, lookups: Bool, scanner: ScanSocketPath?,
        post: @escaping @Sendable (SessionEvent) -> Void
    ) {
        self.store = store
        self.post = post
        access = Mutex(discogs)
        finder = Mutex(ReleaseFinder(access: discogs))
        self.lookups = lookups
        self.scanner = scanner
        undo = UndoLedger(store: store)
        context = ScanContext(store: store)
        (requests, requestSink) = AsyncStream.makeStream(of: SessionRequest.self)
    }

    var discogs: DiscogsAccess? { access.withLock { $0 } }

    /// Starts watching the collection, the worker and the camera.
    public func start() {
        let post = self.post
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
            self.observation.withLock { $0 = observation }
        } catch {
            post(.message("\(error)", isError: true))
        }
        let task = Task { [requests] in
            for await request in requests { await self.execute(request) }
        }
        executor.withLock { $0 = task }
        startWorker()
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

    /// `stop()` for a task: never blocks a thread of the cooperative pool.
    public func stopped() async {
        observation.withLock { $0?.cancel() }
        follower.withLock { $0?.stop() }
        requestSink.finish()
        await stopWorker()
        executor.withLock { $0?.cancel() }
    }

    /// New credentials (signed in from the UI): the worker starts again with them.
    public func signedIn(_ access: DiscogsAccess) {
        // Searches use the new credentials at once; the worker once the old one has stopped.
        finder.withLock { $0 = ReleaseFinder(access: access) }
        Task {
            await stopWorker()
            self.access.withLock { $0 = access }
            startWorker()
            post(.message("Signed in to Discogs as \(access.displayName)", isError: false))
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
                    Task { await self.add(entry, method: method, allowing: allowing, into: location) }
                } else {
                    await add(entry, method: method, allowing: allowing, into: location)
                }
            case .query(let query):
                observation.withLock { $0 }?.update(query)
            case .focus(let id):
                observation.withLock { $0 }?.focus(id)
            case .delete(let ids):
                let (count, token) = try await undo.delete(ids)
                post(.deleted(count: count, undo: token))
            case .undo(let token):
                switch try await undo.undo(token) {
                case .restored(let count): post(.restored(count: count))
                case .movedBack(let count): post(.message("Moved \(counted(count, "record")) back", isError: false))
                case nil: break
                }
            case .loadDetails(let id):
                if let details = try await store.details(id) {
                    post(.details(details))
                    if let release = details.release, !release.hasFullDetails {
                        Task { await self.fetchDetails(release.id, for: id) }
                    }
                } else {
                    post(.message("That record is gone", isError: true))
                }
            case .retry(let id):
                try await store.retry([id])
                nudgeWorker()
            case .choose(let recordID, let releaseID):
                Task { await self.choose(releaseID, for: recordID) }
            case .openURL(let url):
                if ExternalPrograms.openInBrowser(url) {
                    post(.message("Opened \(url)", isError: false))
                } else {
                    post(.message("No browser here: \(url)", isError: false))
                }
            case .grade(let recordID, let change):
                try await grade(recordID, change)
            case .sync:
                startSync()
            case .removeFromDiscogs(let instanceIDs):
                startRemoval(instanceIDs)
            case .search(let query, let recordID):
                // Waits for Discogs: off the serial line, as an add by release.
                Task { await self.search(query, for: recordID) }
            case .enterByHand(let fields, let recordID):
                try await enterByHand(fields, for: recordID, into: context.location)
            case .edit(let id, let edit):
                let record = try await store.edit(id, edit)
                post(.message(edit.isEmpty ? "Nothing changed" : "Saved \(record.subject): \(edit.summary)", isError: false))
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
                        self.post(.statistics(try await self.store.statistics(
                            dimensions: StatisticsDimension.allCases.filter { $0 != .genre })))
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
        if case .release(let id) = entry { known = finder.withLock { $0 }.knownRelease(id) }
        do {
            switch try await RecordAdder(store: store, discogs: discogs).add(
                entry, method: method, allowing: allowing, into: location, known: known)
            {
            case .added(let record, let release):
                post(.added(recordID: record.id))
                recentAdds.withLock { _ = $0.insert(record.id) }
                let onDiscogs = try await onDiscogsText(release: release, gtin: record.gtin)
                if let release {
                    post(.message("Added \(release.displayTitle)" + (onDiscogs.map { ": \($0)" } ?? ""), isError: false))
                } else if let onDiscogs {
                    post(.message("Added \(record.subject): \(onDiscogs)", isError: false))
                }
                nudgeWorker()
            case .held(let question):
                post(.ask(question))
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

    private func existingLocation(_ id: Int64) async throws(StoreError) -> Location {
        guard let location = try await store.location(id) else { throw .location(.unknownID(id)) }
        return location
    }

    /// The person chose a pressing: as a search found it, else fetched in full; then the
    /// record is matched to it (its own values kept).
    private func choose(_ releaseID: Int, for recordID: Int64) async {
        guard discogs != nil else {
            post(.message(DiscogsAccessProblem.notSignedIn.description, isError: true))
            return
        }
        do {
            let release = try await finder.withLock { $0 }.release(releaseID)
            try await store.choose(release, for: recordID)
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
        defer { fetchingDetails.withLock { _ = $0.remove(releaseID) } }
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
        fetchingDetails.withLock { $0.insert(releaseID).inserted }
    }

    /// A search without a barcode: its candidates, or why there are none, go back to the UI.
    private func search(_ query: ReleaseSearchQuery, for recordID: Int64?) async {
        do {
            let found = try await finder.withLock { $0 }.search(query)
            post(.found(ReleaseSearchAnswer(
                recordID: recordID, query: query, candidates: found.hits.map(\.candidate), requests: found.requests,
                isComplete: found.isComplete)))
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
        Task {
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
        self.follower.withLock { $0 = follower }
        follower.start()
    }

    // MARK: The lookup worker

    private func startWorker() {
        guard lookups else {
            post(.discogs(.lookupsOff))
            return
        }
        guard let discogs, discogs.signedIn else {
            post(.discogs(.notSignedIn))
            return
        }
        let username = discogs.username.map(ControlCharacters.cleaned)
        // The collection UI also fetches full details in the background, from the requests
        // the lookups leave over.
        var policy = LookupWorker.Policy()
        policy.backgroundDetails = true
        let worker = LookupWorker(queue: store, lookup: DiscogsBarcodeLookup(client: discogs.client), details: store, policy: policy)
        let post = self.post
        let task = Task {
            let reports = Task {
                for await event in worker.events {
                    if case .settled(let recordID, .matched, _) = event {
                        await self.announceOwnership(recordID: recordID)
                        continue
                    }
                    guard case .status(let status) = event else { continue }
                    post(.discogs(DiscogsStatus(status, username: username)))
                    // Not counting the records in hand: the waiting count comes from the
                    // store after each change (`refreshWaiting`).
                }
            }
            post(.discogs(.signedIn(username: discogs.displayName)))
            await worker.run()
            await reports.value
        }
        self.worker.withLock { $0 = (worker, task) }
    }

    private func nudgeWorker() {
        worker.withLock { $0.worker }?.nudge()
    }

    /// Stops the worker, waiting at most a few seconds for the lookup in hand: cut short, it
    /// goes back to the queue (`LookupWorker.stop`).
    private func stopWorker() async {
        let (worker, task) = self.worker.withLock { state in
            defer { state = (nil, nil) }
            return (state.worker, state.task)
        }
        guard let worker, let task else { return }
        await worker.stop()
        await task.value
    }
}
