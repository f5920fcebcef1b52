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
    private let store: CatalogueStore
    private let post: @Sendable (SessionEvent) -> Void
    private let access: Mutex<DiscogsAccess?>
    private let lookups: Bool
    /// The camera daemon's socket; nil with `--no-scanner`.
    private let scanner: ScanSocketPath?
    private let follower = Mutex<ScanFollower?>(nil)
    private let undo: UndoLedger
    private let worker = Mutex<(worker: LookupWorker?, task: Task<Void, Never>?)>((nil, nil))
    private let observation = Mutex<WindowObservation?>(nil)
    private let requests: AsyncStream<SessionRequest>
    private let requestSink: AsyncStream<SessionRequest>.Continuation
    private let executor = Mutex<Task<Void, Never>?>(nil)
    /// Releases whose full details are being fetched for a person now.
    private let fetchingDetails = Mutex<Set<Int>>([])

    public init(
        store: CatalogueStore, discogs: DiscogsAccess?, lookups: Bool, scanner: ScanSocketPath?,
        post: @escaping @Sendable (SessionEvent) -> Void
    ) {
        self.store = store
        self.post = post
        access = Mutex(discogs)
        self.lookups = lookups
        self.scanner = scanner
        undo = UndoLedger(store: store)
        (requests, requestSink) = AsyncStream.makeStream(of: SessionRequest.self)
    }

    private var discogs: DiscogsAccess? { access.withLock { $0 } }

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
    public func stop() {
        observation.withLock { $0?.cancel() }
        follower.withLock { $0?.stop() }
        requestSink.finish()
        stopWorker()
        executor.withLock { $0?.cancel() }
    }

    /// New credentials (signed in from the UI): the worker starts again with them.
    public func signedIn(_ access: DiscogsAccess) {
        stopWorker()
        self.access.withLock { $0 = access }
        startWorker()
        post(.message("Signed in to Discogs as \(access.displayName)", isError: false))
    }

    // MARK: Requests

    private func execute(_ request: SessionRequest) async {
        do {
            switch request {
            case .add(let entry, let method, let allowing):
                if case .release = entry {
                    // A release waits for Discogs (and its rate limit): off the serial line,
                    // so that list queries and scans are not held up behind it.
                    Task { await self.add(entry, method: method, allowing: allowing) }
                } else {
                    await add(entry, method: method, allowing: allowing)
                }
            case .query(let query):
                observation.withLock { $0 }?.update(query)
            case .focus(let id):
                observation.withLock { $0 }?.focus(id)
            case .delete(let ids):
                let (count, token) = try await undo.delete(ids)
                post(.deleted(count: count, undo: token))
            case .undo(let token):
                if let count = try await undo.undo(token) { post(.restored(count: count)) }
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
            }
        } catch {
            post(.message("\(error)", isError: true))
        }
    }

    private func add(_ entry: CodeEntry, method: AddMethod, allowing: AddAllowance) async {
        do {
            switch try await RecordAdder(store: store, discogs: discogs).add(entry, method: method, allowing: allowing) {
            case .added(let record, let release):
                post(.added(recordID: record.id))
                if let release { post(.message("Added \(release.displayTitle)", isError: false)) }
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

    /// The person chose a pressing: fetched in full (ahead of the lookup queue: they are
    /// waiting for it), then the record is matched to it.
    private func choose(_ releaseID: Int, for recordID: Int64) async {
        guard let client = discogs?.client else {
            post(.message(DiscogsAccessProblem.notSignedIn.description, isError: true))
            return
        }
        do {
            let release = try await client.release(id: releaseID, priority: .interactive)
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
    /// goes back to the queue.
    private func stopWorker() {
        let (worker, task) = self.worker.withLock { ($0.worker, $0.task) }
        guard let worker, let task else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            await worker.stop()
            await task.value
            done.signal()
        }
        if done.wait(timeout: .now() + 3) == .timedOut { task.cancel() }
        self.worker.withLock { $0 = (nil, nil) }
    }
}
